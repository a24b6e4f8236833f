package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * Whether a filter, or the screening as a whole, found a match.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum FilterMatchState {

	/**
	 * Not set by the service.
	 */
	FILTER_MATCH_STATE_UNSPECIFIED,

	/**
	 * The content did not match.
	 */
	NO_MATCH_FOUND,

	/**
	 * The content matched.
	 */
	MATCH_FOUND,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
