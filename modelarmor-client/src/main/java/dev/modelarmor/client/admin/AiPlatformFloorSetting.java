package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

/**
 * The floor setting of Vertex AI (AI Platform). {@code inspectOnly} and {@code inspectAndBlock} are
 * the API's {@code oneof}: at most one of them is set.
 *
 * @param inspectOnly whether the filters inspect only, or {@code null} when not given
 * @param inspectAndBlock whether the filters inspect and block, or {@code null} when not given
 * @param enableCloudLogging whether filter results are logged to Cloud Logging, or {@code null} when
 * not given
 */
public record AiPlatformFloorSetting(@Nullable Boolean inspectOnly, @Nullable Boolean inspectAndBlock,
		@Nullable Boolean enableCloudLogging) {

	/**
	 * Creates the setting. At most one of {@code inspectOnly} and {@code inspectAndBlock} may be set.
	 * @param inspectOnly whether the filters inspect only, or {@code null}
	 * @param inspectAndBlock whether the filters inspect and block, or {@code null}
	 * @param enableCloudLogging whether filter results are logged, or {@code null}
	 * @throws IllegalArgumentException when both {@code inspectOnly} and {@code inspectAndBlock} are
	 * set
	 */
	public AiPlatformFloorSetting {
		if (inspectOnly != null && inspectAndBlock != null) {
			throw new IllegalArgumentException(
					"AiPlatformFloorSetting holds either inspectOnly or inspectAndBlock, not both");
		}
	}

}
