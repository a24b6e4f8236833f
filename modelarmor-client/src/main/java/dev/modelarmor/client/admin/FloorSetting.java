package dev.modelarmor.client.admin;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The floor setting of a project, folder or organization: the filters that every template must at
 * least apply.
 *
 * <p>Every component is {@code null} when not given; {@code null} components are left out of the
 * JSON, and an update changes only the non-{@code null} top-level fields.
 *
 * @param name the resource name, e.g. {@code projects/{project}/locations/{location}/floorSetting}, or
 * {@code null} when not given
 * @param createTime when the floor setting was created (output only), or {@code null}
 * @param updateTime when the floor setting was last updated (output only), or {@code null}
 * @param filterConfig the filters, or {@code null} when not given
 * @param enableFloorSettingEnforcement whether the floor setting is enforced, or {@code null} when not
 * given
 * @param integratedServices the services to which the floor setting applies, an unmodifiable copy, or
 * {@code null} when not given
 * @param aiPlatformFloorSetting the Vertex AI setting, or {@code null} when not given
 * @param floorSettingMetadata the metadata, or {@code null} when not given
 */
public record FloorSetting(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
		@Nullable FilterConfig filterConfig, @Nullable Boolean enableFloorSettingEnforcement,
		@Nullable List<IntegratedService> integratedServices, @Nullable AiPlatformFloorSetting aiPlatformFloorSetting,
		@Nullable FloorSettingMetadata floorSettingMetadata) {

	/**
	 * Creates a floor setting.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param enableFloorSettingEnforcement whether the floor setting is enforced, or {@code null}
	 * @param integratedServices the services, copied, or {@code null}
	 * @param aiPlatformFloorSetting the Vertex AI setting, or {@code null}
	 * @param floorSettingMetadata the metadata, or {@code null}
	 */
	public FloorSetting {
		integratedServices = NullableCopies.list(integratedServices);
	}

	/**
	 * This floor setting without the times that the service sets. The name stays: an update sends it
	 * in the body.
	 * @return the floor setting without create and update time
	 */
	public FloorSetting withoutOutputFields() {
		return new FloorSetting(this.name, null, null, this.filterConfig, this.enableFloorSettingEnforcement,
				this.integratedServices, this.aiPlatformFloorSetting, this.floorSettingMetadata);
	}

}
