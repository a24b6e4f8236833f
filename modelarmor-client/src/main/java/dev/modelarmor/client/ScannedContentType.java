package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * The kind of content that the virus scan examined.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum ScannedContentType {

	/**
	 * Not set by the service.
	 */
	SCANNED_CONTENT_TYPE_UNSPECIFIED,

	/**
	 * Content of an unknown kind.
	 */
	UNKNOWN,

	/**
	 * Plain text.
	 */
	PLAINTEXT,

	/**
	 * A PDF document.
	 */
	PDF,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
