package dev.modelarmor.client.admin;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * Whether a filter of a template or a floor setting is enabled.
 *
 * <p>One enum for the API's three of the same values: {@code PiAndJailbreakFilterEnforcement},
 * {@code MaliciousUriFilterEnforcement} and {@code SdpBasicConfigEnforcement}. Their unspecified
 * values have different names ({@code PI_AND_JAILBREAK_FILTER_ENFORCEMENT_UNSPECIFIED},
 * {@code MALICIOUS_URI_FILTER_ENFORCEMENT_UNSPECIFIED}, {@code SDP_BASIC_CONFIG_ENFORCEMENT_UNSPECIFIED}),
 * so they have no counterpart here and read as {@link #UNRECOGNIZED}. The service treats an
 * unspecified enforcement as disabled, and leaves it out of its answers, where it reads as
 * {@code null}.
 */
public enum FilterEnforcement {

	/**
	 * The filter is enabled.
	 */
	ENABLED,

	/**
	 * The filter is disabled.
	 */
	DISABLED,

	/**
	 * A value that this client does not know, sent by a newer API, or one of the API's unspecified
	 * values. The service would not accept it back.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
