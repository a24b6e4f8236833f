package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * The severity of a {@link MessageItem}.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum MessageType {

	/**
	 * Not set by the service.
	 */
	MESSAGE_TYPE_UNSPECIFIED,

	/**
	 * Information.
	 */
	INFO,

	/**
	 * A warning.
	 */
	WARNING,

	/**
	 * An error.
	 */
	ERROR,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
