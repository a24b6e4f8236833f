package dev.modelarmor.autoconfigure;

import java.util.Objects;

import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.screening.ModelArmorTemplateResolver;
import dev.modelarmor.screening.TenantTemplates;
import dev.modelarmor.web.internal.ModelArmorTenantFilter;
import dev.modelarmor.web.internal.ModelArmorTenantWebFilter;
import dev.modelarmor.web.internal.TenantRefusals;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Tenants: the {@link TenantTemplates} bean {@code modelArmorTenants} (the {@link ModelArmorTemplateResolver}
 * of {@code modelarmor.tenants.*}, unless the application has its own resolver), the templates it names for
 * the startup template check, and, with {@code modelarmor.tenant.header}, the filter that names each request's
 * tenant from that header (servlet or WebFlux).
 */
@AutoConfiguration(before = ModelArmorAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnClass(ModelArmorOperations.class)
@Import(ModelArmorSettingsConfiguration.class)
@EnableConfigurationProperties(ModelArmorTenantProperties.class)
public final class ModelArmorTenantAutoConfiguration {

	/** Mapped and validated whether the starter's resolver is used or the application's own. */
	@Bean
	TenantSettings modelArmorTenantSettings(ModelArmorTenantProperties properties, ModelArmorSettings settings) {
		return TenantSettingsMapper.settings(properties, settings.allowedExtraLocations());
	}

	@Bean
	@ConditionalOnMissingBean(ModelArmorTemplateResolver.class)
	TenantTemplates modelArmorTenants(TenantSettings modelArmorTenantSettings) {
		return modelArmorTenantSettings.resolver();
	}

	@Bean
	NamedTemplates modelArmorTenantTemplates(TenantSettings modelArmorTenantSettings) {
		return modelArmorTenantSettings.named();
	}

	/** The count of requests the tenant filters refuse, with Micrometer. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnProperty("modelarmor.tenant.header")
	static class TenantRefusalMeters {

		static final String REFUSED = "modelarmor.tenant.refused";

		@Bean
		@ConditionalOnMissingBean
		TenantRefusals modelArmorTenantRefusals(ObjectProvider<MeterRegistry> meterRegistry) {
			MeterRegistry registry = meterRegistry.getIfUnique();
			if (registry == null) {
				return TenantRefusals.NONE;
			}
			Counter ambiguous = Counter.builder(REFUSED)
				.description("Requests refused by the tenant header filter before any screening")
				.tag("reason", "ambiguous_header")
				.register(registry);
			return ambiguous::increment;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(name = "jakarta.servlet.Filter")
	@ConditionalOnProperty("modelarmor.tenant.header")
	static class ServletTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorTenantFilter modelArmorTenantFilter(ModelArmorTenantProperties properties,
				ObjectProvider<TenantRefusals> refusals) {
			return new ModelArmorTenantFilter(Objects.requireNonNull(properties.getTenant().getHeader()),
					refusals.getIfUnique(() -> TenantRefusals.NONE));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnProperty("modelarmor.tenant.header")
	static class ReactiveTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorTenantWebFilter modelArmorTenantWebFilter(ModelArmorTenantProperties properties,
				ObjectProvider<TenantRefusals> refusals) {
			return new ModelArmorTenantWebFilter(Objects.requireNonNull(properties.getTenant().getHeader()),
					refusals.getIfUnique(() -> TenantRefusals.NONE));
		}

	}

}
