package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * How confident a filter is in its detection.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum DetectionConfidenceLevel {

	/**
	 * Not set; the service treats it as {@link #LOW_AND_ABOVE}.
	 */
	DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED,

	/**
	 * Low confidence or higher.
	 */
	LOW_AND_ABOVE,

	/**
	 * Medium confidence or higher.
	 */
	MEDIUM_AND_ABOVE,

	/**
	 * High confidence.
	 */
	HIGH,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
