package dev.modelarmor.client.admin;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * A Google Cloud service to which a floor setting applies.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}; in a floor setting that was read, it still travels back as Model Armor sent it
 * (see {@link AsRead}).
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
	 * Google's MCP servers: Model Armor screens the tool calls and results of the MCP servers that Google
	 * runs, as the floor setting's {@link McpServerFloorSetting} says.
	 */
	GOOGLE_MCP_SERVER,

	/**
	 * A value that this client does not know, sent by a newer API. It cannot be sent: a floor setting that
	 * was read sends back the value that Model Armor sent in its place.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
