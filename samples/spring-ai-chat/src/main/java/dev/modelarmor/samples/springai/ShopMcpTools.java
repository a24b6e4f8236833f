package dev.modelarmor.samples.springai;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

/**
 * The tool this app serves to other agents over MCP, with Spring AI's MCP server starter at
 * {@value #ENDPOINT}: the status of a parcel. The calling agent's arguments are screened before the tool runs
 * and its result before it leaves ({@code modelarmor.spring-ai.mcp-server.*}, on by default); a refused call
 * answers an MCP tool error naming the filters, and the tool does not run.
 */
@Component
class ShopMcpTools {

	/** Where Spring AI's MCP server listens ({@code spring.ai.mcp.server.streamable-http.mcp-endpoint}). */
	static final String ENDPOINT = "/shop/mcp";

	private final ParcelTools parcels;

	ShopMcpTools(ParcelTools parcels) {
		this.parcels = parcels;
	}

	/**
	 * The status of a parcel, for other agents.
	 * @param parcelId the parcel, e.g. PX-1001
	 * @return the carrier's status text
	 */
	@McpTool(name = "shopParcelStatus", description = "The delivery status of a parcel sent by the shop")
	String shopParcelStatus(@McpToolParam(description = "The parcel id, e.g. PX-1001") String parcelId) {
		return this.parcels.parcelStatus(parcelId);
	}

}
