package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * The kind of threat that a virus scan identified.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum ThreatType {

	/**
	 * Not set by the service.
	 */
	THREAT_TYPE_UNSPECIFIED,

	/**
	 * A threat of an unknown kind.
	 */
	UNKNOWN,

	/**
	 * A virus or a worm.
	 */
	VIRUS_OR_WORM,

	/**
	 * A malicious program.
	 */
	MALICIOUS_PROGRAM,

	/**
	 * Potentially harmful content.
	 */
	POTENTIALLY_HARMFUL_CONTENT,

	/**
	 * Potentially unwanted content.
	 */
	POTENTIALLY_UNWANTED_CONTENT,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
