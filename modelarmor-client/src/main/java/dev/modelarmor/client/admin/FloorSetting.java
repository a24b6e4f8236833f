package dev.modelarmor.client.admin;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonIgnore;
import org.jspecify.annotations.Nullable;

/**
 * The floor setting of a project, folder or organization: the filters that every template must at
 * least apply.
 *
 * <p>Every component is {@code null} when not given; {@code null} components are left out of the
 * JSON, and an update changes only the non-{@code null} top-level fields.
 *
 * <p>A floor setting read from Model Armor holds its JSON as read ({@link #asRead()}), so that what
 * this client does not model (a newer field, an integrated service that reads as
 * {@link IntegratedService#UNRECOGNIZED}) travels back unchanged when it, or a copy made with the
 * {@code with...} methods, is sent back. {@code equals} and {@code hashCode} compare the modelled
 * components only.
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
 * @param googleMcpServerFloorSetting the setting of Google's MCP servers, or {@code null} when not given
 * @param floorSettingMetadata the metadata, or {@code null} when not given
 * @param asRead the floor setting as Model Armor sent it, or {@code null} for one built in Java
 */
public record FloorSetting(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
		@Nullable FilterConfig filterConfig, @Nullable Boolean enableFloorSettingEnforcement,
		@Nullable List<IntegratedService> integratedServices, @Nullable AiPlatformFloorSetting aiPlatformFloorSetting,
		@Nullable McpServerFloorSetting googleMcpServerFloorSetting,
		@Nullable FloorSettingMetadata floorSettingMetadata, @JsonIgnore @Nullable AsRead asRead) {

	/**
	 * Creates a floor setting.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param enableFloorSettingEnforcement whether the floor setting is enforced, or {@code null}
	 * @param integratedServices the services, copied, or {@code null}
	 * @param aiPlatformFloorSetting the Vertex AI setting, or {@code null}
	 * @param googleMcpServerFloorSetting the setting of Google's MCP servers, or {@code null}
	 * @param floorSettingMetadata the metadata, or {@code null}
	 * @param asRead the floor setting as Model Armor sent it, or {@code null}
	 */
	public FloorSetting {
		integratedServices = NullableCopies.list(integratedServices);
	}

	/**
	 * Creates a floor setting built in Java, with nothing read from Model Armor.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param enableFloorSettingEnforcement whether the floor setting is enforced, or {@code null}
	 * @param integratedServices the services, copied, or {@code null}
	 * @param aiPlatformFloorSetting the Vertex AI setting, or {@code null}
	 * @param googleMcpServerFloorSetting the setting of Google's MCP servers, or {@code null}
	 * @param floorSettingMetadata the metadata, or {@code null}
	 */
	public FloorSetting(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
			@Nullable FilterConfig filterConfig, @Nullable Boolean enableFloorSettingEnforcement,
			@Nullable List<IntegratedService> integratedServices, @Nullable AiPlatformFloorSetting aiPlatformFloorSetting,
			@Nullable McpServerFloorSetting googleMcpServerFloorSetting,
			@Nullable FloorSettingMetadata floorSettingMetadata) {
		this(name, createTime, updateTime, filterConfig, enableFloorSettingEnforcement, integratedServices,
				aiPlatformFloorSetting, googleMcpServerFloorSetting, floorSettingMetadata, null);
	}

	/**
	 * This floor setting with other filters; what was read stays.
	 * @param filterConfig the filters, or {@code null} to leave them out
	 * @return the floor setting
	 */
	public FloorSetting withFilterConfig(@Nullable FilterConfig filterConfig) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, filterConfig,
				this.enableFloorSettingEnforcement, this.integratedServices, this.aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, this.floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting, enforced or not; what was read stays.
	 * @param enableFloorSettingEnforcement whether it is enforced, or {@code null} to leave it out
	 * @return the floor setting
	 */
	public FloorSetting withEnableFloorSettingEnforcement(@Nullable Boolean enableFloorSettingEnforcement) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, this.filterConfig,
				enableFloorSettingEnforcement, this.integratedServices, this.aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, this.floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting for other services; what was read stays, also a service that reads as
	 * {@link IntegratedService#UNRECOGNIZED} and is kept in the list.
	 * @param integratedServices the services, or {@code null} to leave them out
	 * @return the floor setting
	 */
	public FloorSetting withIntegratedServices(@Nullable List<IntegratedService> integratedServices) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, this.filterConfig,
				this.enableFloorSettingEnforcement, integratedServices, this.aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, this.floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting with another Vertex AI setting; what was read stays.
	 * @param aiPlatformFloorSetting the setting, or {@code null} to leave it out
	 * @return the floor setting
	 */
	public FloorSetting withAiPlatformFloorSetting(@Nullable AiPlatformFloorSetting aiPlatformFloorSetting) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, this.filterConfig,
				this.enableFloorSettingEnforcement, this.integratedServices, aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, this.floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting with another setting for Google's MCP servers; what was read stays.
	 * @param googleMcpServerFloorSetting the setting, or {@code null} to leave it out
	 * @return the floor setting
	 */
	public FloorSetting withGoogleMcpServerFloorSetting(@Nullable McpServerFloorSetting googleMcpServerFloorSetting) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, this.filterConfig,
				this.enableFloorSettingEnforcement, this.integratedServices, this.aiPlatformFloorSetting,
				googleMcpServerFloorSetting, this.floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting with other metadata; what was read stays.
	 * @param floorSettingMetadata the metadata, or {@code null} to leave it out
	 * @return the floor setting
	 */
	public FloorSetting withFloorSettingMetadata(@Nullable FloorSettingMetadata floorSettingMetadata) {
		return new FloorSetting(this.name, this.createTime, this.updateTime, this.filterConfig,
				this.enableFloorSettingEnforcement, this.integratedServices, this.aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, floorSettingMetadata, this.asRead);
	}

	/**
	 * This floor setting without the times that the service sets. The name stays: an update sends it
	 * in the body. What was read stays, less those times.
	 * @return the floor setting without create and update time
	 */
	public FloorSetting withoutOutputFields() {
		return new FloorSetting(this.name, null, null, this.filterConfig, this.enableFloorSettingEnforcement,
				this.integratedServices, this.aiPlatformFloorSetting, this.googleMcpServerFloorSetting,
				this.floorSettingMetadata, this.asRead);
	}

	/**
	 * Compares the modelled components, not {@link #asRead()}.
	 * @param other another object
	 * @return whether it is a floor setting with equal modelled components
	 */
	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof FloorSetting that && Objects.equals(this.name, that.name)
				&& Objects.equals(this.createTime, that.createTime) && Objects.equals(this.updateTime, that.updateTime)
				&& Objects.equals(this.filterConfig, that.filterConfig)
				&& Objects.equals(this.enableFloorSettingEnforcement, that.enableFloorSettingEnforcement)
				&& Objects.equals(this.integratedServices, that.integratedServices)
				&& Objects.equals(this.aiPlatformFloorSetting, that.aiPlatformFloorSetting)
				&& Objects.equals(this.googleMcpServerFloorSetting, that.googleMcpServerFloorSetting)
				&& Objects.equals(this.floorSettingMetadata, that.floorSettingMetadata));
	}

	/**
	 * A hash of the modelled components, not of {@link #asRead()}.
	 * @return the hash
	 */
	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.createTime, this.updateTime, this.filterConfig,
				this.enableFloorSettingEnforcement, this.integratedServices, this.aiPlatformFloorSetting,
				this.googleMcpServerFloorSetting, this.floorSettingMetadata);
	}

}
