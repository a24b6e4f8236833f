package dev.modelarmor.autoconfigure;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The templates the application names in its properties: the only ids a meter's {@code template} tag
 * shows (any other is {@code other}), so that the number of series stays bounded.
 */
final class ConfiguredTemplates {

	private ConfiguredTemplates() {
	}

	/**
	 * The configured template ids.
	 * @param environment the application's environment
	 * @return the ids of {@code modelarmor.template-id} and the Spring AI integrations' templates
	 */
	static Set<String> of(Environment environment) {
		// Read by name rather than injected: the Spring AI properties are a bean only with Spring AI present.
		Binder binder = Binder.get(environment);
		Set<String> templates = new HashSet<>();
		Stream.of(bound(binder, "modelarmor.template-id"), bound(binder, "modelarmor.spring-ai.advisor.template"),
				bound(binder, "modelarmor.spring-ai.documents.template"),
				bound(binder, "modelarmor.spring-ai.tools.template"))
			.filter((template) -> template != null && !template.isBlank())
			.forEach(templates::add);
		// a tenant's template counts as declared: the screening names it with its location, the call by its id
		binder.bind(TenantSettingsMapper.TENANTS_PROPERTY,
				Bindable.mapOf(String.class, ModelArmorTenantProperties.Tenant.class))
			.ifBound((tenants) -> tenants.values().forEach((tenant) -> {
				String id = tenant.getTemplateId();
				String location = tenant.getLocation();
				if (id != null && !id.isBlank()) {
					templates.add(id.strip());
					if (location != null && !location.isBlank()) {
						templates.add("locations/" + location.strip() + "/templates/" + id.strip());
					}
				}
			}));
		return Set.copyOf(templates);
	}

	/**
	 * The client's own template, which a screening that names none uses.
	 * @param environment the application's environment
	 * @return the id of {@code modelarmor.template-id}, or {@code null}
	 */
	static @Nullable String defaultTemplate(Environment environment) {
		return bound(Binder.get(environment), "modelarmor.template-id");
	}

	private static @Nullable String bound(Binder binder, String name) {
		return binder.bind(name, String.class).orElse(null);
	}

}
