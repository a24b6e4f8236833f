package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.ModelArmorTemplateResolver;
import dev.modelarmor.screening.TenantTemplates;
import dev.modelarmor.web.internal.ModelArmorTenantFilter;
import dev.modelarmor.web.internal.ModelArmorTenantWebFilter;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tenants: the {@link TenantTemplates} bean {@code modelArmorTenants} (the {@link ModelArmorTemplateResolver}
 * of {@code modelarmor.tenants.*}, unless the application has its own resolver), the templates it names for
 * the startup template check, and, with {@code modelarmor.tenant.header}, the filter that names each request's
 * tenant from that header (servlet or WebFlux).
 */
@AutoConfiguration(before = ModelArmorAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnClass(ModelArmorOperations.class)
@EnableConfigurationProperties({ ModelArmorTenantProperties.class, ModelArmorProperties.class })
public final class ModelArmorTenantAutoConfiguration {

	static final String TENANTS_PROPERTY = "modelarmor.tenants";

	@Bean
	@ConditionalOnMissingBean(ModelArmorTemplateResolver.class)
	TenantTemplates modelArmorTenants(ModelArmorTenantProperties properties, ModelArmorProperties client) {
		return new TenantTemplates(references(properties, client.getAllowedExtraLocations()),
				properties.getTenant().getUnknown());
	}

	@Bean
	IntegrationTemplates modelArmorTenantTemplates(ModelArmorTenantProperties properties, ModelArmorProperties client) {
		Map<String, String> byProperty = new LinkedHashMap<>();
		references(properties, client.getAllowedExtraLocations()).forEach((name, reference) -> byProperty.put(TENANTS_PROPERTY + "." + name,
				reference.name()));
		return new IntegrationTemplates(byProperty);
	}

	/**
	 * Each declared tenant's template.
	 * @param properties the tenants' properties
	 * @param allowedExtraLocations locations accepted besides Model Armor's known ones
	 * @return the references by tenant
	 * @throws ModelArmorConfigurationException naming the property, for a tenant without a template id or a
	 * location, or with one that cannot be used
	 */
	static Map<String, TemplateReference> references(ModelArmorTenantProperties properties,
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
			if (location == null || location.isBlank()) {
				throw new ModelArmorConfigurationException(prefix + ".location",
						"is not set: a tenant's template is called in its own location, never in a guessed one",
						"Set " + prefix + ".location to the template's location, e.g. europe-west4");
			}
			if (!ModelArmorSettings.LOCATIONS.contains(location.strip())
					&& !allowedExtraLocations.contains(location.strip())) {
				throw new ModelArmorConfigurationException(prefix + ".location",
						"is not a Model Armor location (" + location.strip() + ")", "Use one of "
								+ String.join(", ", ModelArmorSettings.LOCATIONS)
								+ ", or add it to modelarmor.allowed-extra-locations");
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

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(name = "jakarta.servlet.Filter")
	@ConditionalOnProperty("modelarmor.tenant.header")
	static class ServletTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorTenantFilter modelArmorTenantFilter(ModelArmorTenantProperties properties) {
			return new ModelArmorTenantFilter(java.util.Objects.requireNonNull(properties.getTenant().getHeader()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnProperty("modelarmor.tenant.header")
	static class ReactiveTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorTenantWebFilter modelArmorTenantWebFilter(ModelArmorTenantProperties properties) {
			return new ModelArmorTenantWebFilter(java.util.Objects.requireNonNull(properties.getTenant().getHeader()));
		}

	}

}
