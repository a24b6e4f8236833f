package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * Whether a filter ran.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum FilterExecutionState {

	/**
	 * Not set by the service.
	 */
	FILTER_EXECUTION_STATE_UNSPECIFIED,

	/**
	 * The filter ran.
	 */
	EXECUTION_SUCCESS,

	/**
	 * The filter was skipped.
	 */
	EXECUTION_SKIPPED,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
