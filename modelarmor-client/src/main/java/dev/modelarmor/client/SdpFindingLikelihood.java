package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * How likely a Sensitive Data Protection finding is.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum SdpFindingLikelihood {

	/**
	 * Not set; the service treats it as {@link #POSSIBLE}.
	 */
	SDP_FINDING_LIKELIHOOD_UNSPECIFIED,

	/**
	 * Very unlikely.
	 */
	VERY_UNLIKELY,

	/**
	 * Unlikely.
	 */
	UNLIKELY,

	/**
	 * Possible.
	 */
	POSSIBLE,

	/**
	 * Likely.
	 */
	LIKELY,

	/**
	 * Very likely.
	 */
	VERY_LIKELY,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
