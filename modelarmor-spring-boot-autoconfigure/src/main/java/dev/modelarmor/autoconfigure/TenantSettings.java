package dev.modelarmor.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.TenantTemplates;
import dev.modelarmor.screening.UnknownTenant;

/**
 * The tenants as {@code modelarmor.tenants.*} and {@code modelarmor.tenant.unknown} declare them, mapped once
 * by {@link TenantSettingsMapper}: what the tenant resolver and the templates in use are made of.
 *
 * @param templates each tenant's template, by tenant, in the order declared
 * @param unknown what becomes of a call whose tenant is not declared
 */
record TenantSettings(Map<String, TemplateReference> templates, UnknownTenant unknown) {

	TenantSettings {
		// in the order declared: the health check reads the first tenant template of each location
		templates = Collections.unmodifiableMap(new LinkedHashMap<>(templates));
	}

	/**
	 * The resolver of each call's template by its tenant.
	 * @return the tenants' templates
	 */
	TenantTemplates resolver() {
		return new TenantTemplates(this.templates, this.unknown);
	}

	/**
	 * The tenants' templates, each by the property naming it, for the templates in use.
	 * @return the templates by {@code modelarmor.tenants.<name>}
	 */
	NamedTemplates named() {
		Map<String, String> byProperty = new LinkedHashMap<>();
		this.templates.forEach((name, reference) -> byProperty.put(TenantSettingsMapper.TENANTS_PROPERTY + "." + name,
				reference.name()));
		return new NamedTemplates(byProperty);
	}

}
