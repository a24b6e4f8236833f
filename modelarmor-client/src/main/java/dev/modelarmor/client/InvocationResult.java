package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * Whether every filter of a screening ran.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum InvocationResult {

	/**
	 * Not set by the service.
	 */
	INVOCATION_RESULT_UNSPECIFIED,

	/**
	 * All filters ran.
	 */
	SUCCESS,

	/**
	 * Some filters were skipped or failed.
	 */
	PARTIAL,

	/**
	 * All filters were skipped or failed.
	 */
	FAILURE,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
