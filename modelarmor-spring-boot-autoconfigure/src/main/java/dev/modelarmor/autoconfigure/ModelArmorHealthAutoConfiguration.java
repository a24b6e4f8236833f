package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.modelarmor.actuate.ModelArmorHealthIndicator;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.TenantTemplates;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the {@code modelArmor} health indicator. Off unless
 * {@code management.health.modelarmor.enabled=true}: a check calls Model Armor, which costs quota and
 * needs the {@code modelarmor.templates.get} permission, so it is opt-in.
 *
 * <p>When the client is the starter's {@link ModelArmorTemplate}, the check uses a copy of it that makes
 * a single attempt bounded by {@link ModelArmorHealthIndicator#CHECK_DEADLINE} (or the retry deadline
 * when shorter), so that a health probe answers within seconds instead of retrying for the whole retry
 * deadline. An application's own {@link ModelArmorOperations} is used as it is.
 */
@AutoConfiguration(after = { ModelArmorAutoConfiguration.class, ModelArmorTenantAutoConfiguration.class },
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBooleanProperty(name = "management.health.modelarmor.enabled")
@ConditionalOnBean(ModelArmorOperations.class)
@Import(ModelArmorSettingsConfiguration.class)
public final class ModelArmorHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(value = ModelArmorHealthIndicator.class, name = "modelArmorHealthIndicator")
	ModelArmorHealthIndicator modelArmorHealthIndicator(ModelArmorOperations operations, ModelArmorSettings settings,
			TemplatesInUse templatesInUse, ObjectProvider<RetryRuntime> retryRuntime,
			ObjectProvider<ModelArmorCircuitBreaker> circuitBreaker) {
		RetryRuntime runtime = retryRuntime.getIfAvailable(RetryRuntime::system);
		ModelArmorOperations checking = operations;
		String templateId = templatesInUse.defaultTemplate();
		String location = settings.location();
		if (operations instanceof ModelArmorTemplate template) {
			RetrySettings singleAttempt = singleAttempt(settings.retry());
			checking = template.withRetryTemplate(ModelArmorRetryTemplates.singleAttempt(singleAttempt, runtime));
			templateId = template.getTemplateId();
			location = template.getLocation();
		}
		return withBreaker(new ModelArmorHealthIndicator(checking, templateId, settings.healthCacheTimeToLive(),
				runtime.clock()), circuitBreaker.getIfUnique(), location);
	}

	private static ModelArmorHealthIndicator withBreaker(ModelArmorHealthIndicator indicator,
			@Nullable ModelArmorCircuitBreaker breaker, @Nullable String location) {
		return (breaker != null && location != null)
				? indicator.withCircuitBreakerState(location, () -> breaker.state(location)) : indicator;
	}

	/**
	 * One line per location of the tenants' templates ({@code modelArmorLocations}), each reading one
	 * tenant template where it lives, so that a location that cannot be reached shows on its own.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "modelArmorLocationsHealthContributor")
	@ConditionalOnBean(TenantTemplates.class)
	@Conditional(OnTenantsDeclaredCondition.class)
	CompositeHealthContributor modelArmorLocationsHealthContributor(ModelArmorOperations operations,
			TenantTemplates tenants, ModelArmorSettings settings,
			ObjectProvider<RetryRuntime> retryRuntime, ObjectProvider<ModelArmorCircuitBreaker> circuitBreaker) {
		RetryRuntime runtime = retryRuntime.getIfAvailable(RetryRuntime::system);
		ModelArmorCircuitBreaker breaker = circuitBreaker.getIfUnique();
		Map<String, TemplateReference> byLocation = new TreeMap<>();
		tenants.tenants().values().forEach((reference) -> byLocation.putIfAbsent(reference.location(), reference));
		Map<String, HealthIndicator> indicators = new LinkedHashMap<>();
		byLocation.forEach((location, reference) -> {
			ModelArmorOperations checking = operations.withTemplate(reference);
			if (checking instanceof ModelArmorTemplate template) {
				checking = template.withRetryTemplate(
						ModelArmorRetryTemplates.singleAttempt(singleAttempt(settings.retry()), runtime));
			}
			indicators.put(location, withBreaker(new ModelArmorHealthIndicator(checking, reference.templateId(),
					settings.healthCacheTimeToLive(), runtime.clock()), breaker, location));
		});
		return CompositeHealthContributor.fromMap(indicators);
	}

	private static RetrySettings singleAttempt(RetrySettings settings) {
		Duration deadline = (settings.deadline().compareTo(ModelArmorHealthIndicator.CHECK_DEADLINE) < 0)
				? settings.deadline() : ModelArmorHealthIndicator.CHECK_DEADLINE;
		return new RetrySettings(settings.schedule(), deadline, settings.retryTooManyRequests(), settings.honorRetryAfter(),
				null, settings.jitterMode());
	}

}
