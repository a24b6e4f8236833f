package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

/**
 * The floor setting of Google's MCP servers (the API's {@code McpServerFloorSetting}, in a floor setting's
 * {@code googleMcpServerFloorSetting}): how Model Armor screens the tools of the MCP servers that Google
 * runs, when the floor setting lists {@link IntegratedService#GOOGLE_MCP_SERVER}. {@code inspectOnly} and
 * {@code inspectAndBlock} are the API's {@code oneof}: at most one of them is set.
 *
 * @param inspectOnly whether the filters inspect only, or {@code null} when not given
 * @param inspectAndBlock whether the filters inspect and block, or {@code null} when not given
 * @param enableCloudLogging whether filter results are logged to Cloud Logging, or {@code null} when
 * not given
 */
public record McpServerFloorSetting(@Nullable Boolean inspectOnly, @Nullable Boolean inspectAndBlock,
		@Nullable Boolean enableCloudLogging) {

	/**
	 * Creates the setting. At most one of {@code inspectOnly} and {@code inspectAndBlock} may be set.
	 * @param inspectOnly whether the filters inspect only, or {@code null}
	 * @param inspectAndBlock whether the filters inspect and block, or {@code null}
	 * @param enableCloudLogging whether filter results are logged, or {@code null}
	 * @throws IllegalArgumentException when both {@code inspectOnly} and {@code inspectAndBlock} are
	 * set
	 */
	public McpServerFloorSetting {
		if (inspectOnly != null && inspectAndBlock != null) {
			throw new IllegalArgumentException(
					"McpServerFloorSetting holds either inspectOnly or inspectAndBlock, not both");
		}
	}

	/**
	 * Filters that inspect only: nothing is blocked.
	 * @param enableCloudLogging whether filter results are logged to Cloud Logging
	 * @return the setting
	 */
	public static McpServerFloorSetting inspectOnly(boolean enableCloudLogging) {
		return new McpServerFloorSetting(true, null, enableCloudLogging);
	}

	/**
	 * Filters that inspect and block what trips them.
	 * @param enableCloudLogging whether filter results are logged to Cloud Logging
	 * @return the setting
	 */
	public static McpServerFloorSetting inspectAndBlock(boolean enableCloudLogging) {
		return new McpServerFloorSetting(null, true, enableCloudLogging);
	}

}
