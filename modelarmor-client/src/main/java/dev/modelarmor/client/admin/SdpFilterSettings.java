package dev.modelarmor.client.admin;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The settings of the Sensitive Data Protection filter of a template or a floor setting: a basic or
 * an advanced configuration, never both (the API's {@code oneof}).
 *
 * @param basicConfig the basic configuration, or {@code null}
 * @param advancedConfig the advanced configuration, or {@code null}
 */
public record SdpFilterSettings(@Nullable SdpBasicConfig basicConfig, @Nullable SdpAdvancedConfig advancedConfig) {

	/**
	 * Creates the settings. At most one of the configurations may be set.
	 * @param basicConfig the basic configuration, or {@code null}
	 * @param advancedConfig the advanced configuration, or {@code null}
	 * @throws IllegalArgumentException when both are set
	 */
	public SdpFilterSettings {
		if (basicConfig != null && advancedConfig != null) {
			throw new IllegalArgumentException(
					"SdpFilterSettings holds either a basic or an advanced configuration, not both");
		}
	}

	/**
	 * Creates a basic configuration, which inspects for a fixed set of six info types.
	 * @param filterEnforcement whether the filter is enabled
	 * @return the settings
	 */
	public static SdpFilterSettings basic(FilterEnforcement filterEnforcement) {
		Objects.requireNonNull(filterEnforcement, "filterEnforcement must not be null");
		return new SdpFilterSettings(new SdpBasicConfig(filterEnforcement), null);
	}

	/**
	 * Creates an advanced configuration, which uses Sensitive Data Protection templates.
	 * @param inspectTemplate the inspect template's resource name, e.g.
	 * {@code projects/p/locations/l/inspectTemplates/t}
	 * @param deidentifyTemplate the de-identify template's resource name, or {@code null} to inspect
	 * only
	 * @return the settings
	 */
	public static SdpFilterSettings advanced(String inspectTemplate, @Nullable String deidentifyTemplate) {
		Objects.requireNonNull(inspectTemplate, "inspectTemplate must not be null");
		return new SdpFilterSettings(null, new SdpAdvancedConfig(inspectTemplate, deidentifyTemplate));
	}

	/**
	 * The basic Sensitive Data Protection configuration: inspection for a fixed set of six info
	 * types.
	 *
	 * @param filterEnforcement whether the filter is enabled, or {@code null} when not given (the
	 * service treats that as disabled)
	 */
	public record SdpBasicConfig(@Nullable FilterEnforcement filterEnforcement) {

	}

	/**
	 * The advanced Sensitive Data Protection configuration: inspection, and de-identification when a
	 * de-identify template is given.
	 *
	 * @param inspectTemplate the inspect template's resource name, or {@code null} when not given
	 * @param deidentifyTemplate the de-identify template's resource name, or {@code null} when not
	 * given
	 */
	public record SdpAdvancedConfig(@Nullable String inspectTemplate, @Nullable String deidentifyTemplate) {

	}

}
