package dev.modelarmor.client.admin;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * A Google Cloud service to which a floor setting applies.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum IntegratedService {

	/**
	 * Not set.
	 */
	INTEGRATED_SERVICE_UNSPECIFIED,

	/**
	 * Vertex AI (AI Platform).
	 */
	AI_PLATFORM,

	/**
	 * A value that this client does not know, sent by a newer API.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
