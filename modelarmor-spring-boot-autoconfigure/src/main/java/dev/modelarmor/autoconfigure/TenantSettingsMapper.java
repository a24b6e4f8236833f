package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.TemplateReference;

/**
 * Maps {@code modelarmor.tenants.*} onto each tenant's template: a tenant names its template and the
 * location it is called in, never a guessed one.
 */
final class TenantSettingsMapper {

	static final String TENANTS_PROPERTY = "modelarmor.tenants";

	/**
	 * A template id as Model Armor creates them: letters, digits, hyphens and underscores, at most 63, not
	 * starting with a hyphen. Any other id names no template that can exist, and a call with it could only fail.
	 */
	private TenantSettingsMapper() {
	}

	/**
	 * The declared tenants.
	 * @param properties the tenants' properties
	 * @param allowedExtraLocations locations accepted besides Model Armor's known ones
	 * @return each tenant's template and what becomes of an undeclared tenant
	 * @throws ModelArmorConfigurationException naming the property, for a tenant without a template id or a
	 * location, or with one that cannot be used
	 */
	static TenantSettings settings(ModelArmorTenantProperties properties, List<String> allowedExtraLocations) {
		return new TenantSettings(references(properties, allowedExtraLocations), properties.getTenant().getUnknown());
	}

	/**
	 * Each declared tenant's template.
	 * @param properties the tenants' properties
	 * @param allowedExtraLocations locations accepted besides Model Armor's known ones
	 * @return the references by tenant
	 * @throws ModelArmorConfigurationException naming the property, for a tenant without a template id or a
	 * location, or with one that cannot be used
	 */
	private static Map<String, TemplateReference> references(ModelArmorTenantProperties properties,
			List<String> allowedExtraLocations) {
		Map<String, TemplateReference> references = new LinkedHashMap<>();
		properties.getTenants().forEach((name, tenant) -> {
			String prefix = TENANTS_PROPERTY + "." + name;
			String templateId = tenant.getTemplateId();
			String location = tenant.getLocation();
			if (templateId == null || templateId.isBlank()) {
				throw new ModelArmorConfigurationException(prefix + ".template-id", "is not set",
						"Name the tenant's template with " + prefix + ".template-id");
			}
			TemplateIds.requireValid(prefix + ".template-id", templateId.strip());
			if (location == null || location.isBlank()) {
				throw new ModelArmorConfigurationException(prefix + ".location",
						"is not set: a tenant's template is called in its own location, never in a guessed one",
						"Set " + prefix + ".location to the template's location, e.g. europe-west4");
			}
			if (!ClientSettingsMapper.isKnownLocation(location.strip(), allowedExtraLocations)) {
				throw new ModelArmorConfigurationException(prefix + ".location",
						"is not a Model Armor location (" + location.strip() + ")",
						"Use " + ClientSettingsMapper.knownLocations());
			}
			try {
				references.put(name, TemplateReference.of(templateId.strip(), location.strip()));
			}
			catch (IllegalArgumentException ex) {
				boolean badLocation = ex.getMessage() != null && ex.getMessage().startsWith("location");
				throw new ModelArmorConfigurationException(prefix + (badLocation ? ".location" : ".template-id"),
						String.valueOf(ex.getMessage()), "Correct the value", ex);
			}
		});
		return references;
	}

}
