package dev.modelarmor.autoconfigure;

import java.util.Map;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.guard.ModelArmorGuardPostProcessor;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.ModelArmorRetryCustomizer;
import dev.modelarmor.retry.ModelArmorAsyncRetries;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.ShutdownAwareSleeper;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestClient;

/**
 * Auto-configuration of the Model Armor client: a {@link ModelArmorTemplate} that talks to the
 * configured endpoint with Google credentials and retries with Google's retry strategy.
 *
 * <p>The spring-retry {@link RetryTemplate} it builds is not a bean, so that it never meets an
 * application's own; adjust it with {@link ModelArmorRetryCustomizer} beans. A {@link RetryRuntime}
 * bean, when present, replaces the system clock, sleeper and random source (for tests); otherwise waits
 * between retries end as soon as the context starts closing. A
 * {@link ModelArmorCallObserver} bean receives every call (metrics, traces). What screening means for a
 * call is {@code ModelArmorScreeningConfiguration}'s, which the auto-configurations that screen import. Once
 * the application has started, every template it names is read once ({@code modelarmor.template-check.enabled}).
 */
@AutoConfiguration(afterName = "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration")
@ConditionalOnClass({ RestClient.class, RetryTemplate.class, GoogleCredentials.class })
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorCredentialsConfiguration.class })
@EnableConfigurationProperties({ ModelArmorProperties.class, ModelArmorScreeningProperties.class })
public final class ModelArmorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ShutdownAwareSleeper modelArmorRetrySleeper() {
		return new ShutdownAwareSleeper();
	}

	@Bean
	RetryShutdownListener modelArmorRetryShutdownListener(ShutdownAwareSleeper modelArmorRetrySleeper) {
		return new RetryShutdownListener(modelArmorRetrySleeper);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(ModelArmorOperations.class)
	ModelArmorTemplate modelArmorTemplate(ModelArmorSettings settings,
			ModelArmorAuthorization modelArmorAuthorization,
			ObjectProvider<RestClient.Builder> restClientBuilder, ObjectProvider<ModelArmorRetryCustomizer> customizers,
			ObjectProvider<RetryRuntime> retryRuntime, ObjectProvider<ModelArmorCallObserver> callObserver,
			ShutdownAwareSleeper modelArmorRetrySleeper, ObjectProvider<AttemptGate> attemptGate,
			ObjectProvider<RetryBudget> retryBudget) {
		RetryRuntime runtime = retryRuntime.getIfAvailable(() -> RetryRuntime.system(modelArmorRetrySleeper));
		RetryBudget budget = retryBudget.getIfUnique();
		RetryTemplate retryTemplate = retryTemplate(settings.retryEnabled(), settings.retry(), runtime, budget);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(retryTemplate));
		return ModelArmorTemplate.builder()
			.restClientBuilder(restClientBuilder.getIfAvailable(RestClient::builder))
			.endpoint(settings.endpoint())
			.httpClientSettings(settings.http())
			.authorization(modelArmorAuthorization.interceptor())
			.quotaProjectId(modelArmorAuthorization.quotaProjectId())
			.retryTemplate(retryTemplate)
			.asyncRetries(asyncRetries(settings.retryEnabled(), settings.retry(), runtime, budget))
			.projectId(modelArmorAuthorization.projectId())
			.location(settings.location())
			.templateId(settings.templateId())
			.callObserver(callObserver.getIfAvailable(() -> ModelArmorCallObserver.NONE))
			.attemptGate(attemptGate.getIfAvailable(() -> AttemptGate.OPEN))
			.build();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = ModelArmorTemplateCheck.ENABLED_PROPERTY, matchIfMissing = true)
	ModelArmorTemplateCheck modelArmorTemplateCheck(ModelArmorOperations operations, ModelArmorSettings settings,
			TemplatesInUse templatesInUse, ObjectProvider<ModelArmorGuardPostProcessor> guard) {
		return new ModelArmorTemplateCheck(operations,
				() -> ModelArmorTemplateCheck.named(templatesInUse,
						guard.stream().map(ModelArmorGuardPostProcessor::templates).findFirst().orElse(Map.of())),
				settings.location(), settings.retry().deadline());
	}

	/** The non-blocking path's retries, the blocking path's twins: the same settings, runtime and budget. */
	private static ModelArmorAsyncRetries asyncRetries(boolean enabled, RetrySettings settings, RetryRuntime runtime,
			@Nullable RetryBudget budget) {
		if (!enabled) {
			return ModelArmorAsyncRetries.singleAttempt(settings, runtime);
		}
		return (budget != null) ? ModelArmorAsyncRetries.retrying(settings, runtime, budget)
				: ModelArmorAsyncRetries.retrying(settings, runtime);
	}

	private static RetryTemplate retryTemplate(boolean enabled, RetrySettings settings, RetryRuntime runtime,
			@Nullable RetryBudget budget) {
		if (enabled && budget != null) {
			return ModelArmorRetryTemplates.retrying(settings, runtime, budget);
		}
		return enabled ? ModelArmorRetryTemplates.retrying(settings, runtime)
				: ModelArmorRetryTemplates.singleAttempt(settings, runtime);
	}

}
