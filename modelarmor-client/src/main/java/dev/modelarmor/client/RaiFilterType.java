package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * A responsible AI filter category.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum RaiFilterType {

	/**
	 * Not set by the service.
	 */
	RAI_FILTER_TYPE_UNSPECIFIED,

	/**
	 * Sexually explicit content.
	 */
	SEXUALLY_EXPLICIT,

	/**
	 * Hate speech.
	 */
	HATE_SPEECH,

	/**
	 * Harassment.
	 */
	HARASSMENT,

	/**
	 * Dangerous content.
	 */
	DANGEROUS,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
