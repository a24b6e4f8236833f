package dev.modelarmor.autoconfigure;

import java.util.Objects;

import dev.modelarmor.observation.internal.MicrometerResilienceObserver;
import dev.modelarmor.observation.internal.ModelArmorResilienceMeters;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.resilience.QuotaLimiter;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.resilience.RedisQuotaBucket;
import dev.modelarmor.resilience.ResilienceGate;
import dev.modelarmor.resilience.ResilienceObserver;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.ShutdownAwareSleeper;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of what admits each HTTP attempt of the Model Armor client: a circuit
 * breaker per location the instance calls ({@code modelarmor.circuit-breaker.*}, on unless disabled), the
 * quota limiter ({@code modelarmor.quota.*}, off unless enabled; one per project, as Model Armor's quota is)
 * and, with {@code modelarmor.retry.budget.enabled}, the retry budget (kept per location) as a bean so that
 * its tokens can be a gauge. The {@link ResilienceGate} that combines them
 * is given to the auto-configured {@code ModelArmorTemplate}.
 *
 * <p>The quota is shared through Redis when the application has a Lettuce {@code RedisConnectionFactory}
 * (spring-data-redis and bucket4j_jdk17-lettuce on the class path), kept in this process otherwise.
 */
@AutoConfiguration(before = ModelArmorAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import(ModelArmorSettingsConfiguration.class)
public final class ModelArmorResilienceAutoConfiguration {

	private static final String LETTUCE_FACTORY = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

	private static final String BUCKET4J_LETTUCE = "io.github.bucket4j.redis.lettuce.Bucket4jLettuce";

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "modelarmor.circuit-breaker.enabled", matchIfMissing = true)
	ModelArmorCircuitBreaker modelArmorCircuitBreaker(ModelArmorSettings settings,
			ObjectProvider<RetryRuntime> retryRuntime) {
		return new ModelArmorCircuitBreaker("modelarmor", settings.circuitBreaker(),
				retryRuntime.getIfAvailable(RetryRuntime::system).clock());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "modelarmor.quota.enabled")
	QuotaLimiter modelArmorQuotaLimiter(ModelArmorSettings modelArmorSettings,
			ObjectProvider<RetryRuntime> retryRuntime, ObjectProvider<ShutdownAwareSleeper> sleeper,
			ObjectProvider<ModelArmorAuthorization> authorization, BeanFactory beanFactory) {
		QuotaSettings settings = modelArmorSettings.quota();
		RetryRuntime runtime = retryRuntime.getIfAvailable(() -> {
			ShutdownAwareSleeper shutdownAware = sleeper.getIfAvailable();
			return (shutdownAware != null) ? RetryRuntime.system(shutdownAware) : RetryRuntime.system();
		});
		if (ClassUtils.isPresent(LETTUCE_FACTORY, null) && ClassUtils.isPresent(BUCKET4J_LETTUCE, null)) {
			QuotaLimiter shared = SharedQuota.limiter(beanFactory, key(authorization.getIfAvailable()), settings,
					runtime);
			if (shared != null) {
				return shared;
			}
		}
		return QuotaLimiter.local(settings, runtime);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "modelarmor.retry.budget.enabled", matchIfMissing = true)
	RetryBudget modelArmorRetryBudget(ModelArmorSettings settings, ObjectProvider<RetryRuntime> retryRuntime) {
		RetrySettings retry = settings.retry();
		return new RetryBudget(Objects.requireNonNull(retry.budget(), "enabled"),
				retryRuntime.getIfAvailable(RetryRuntime::system).clock());
	}

	@Bean
	@ConditionalOnMissingBean(AttemptGate.class)
	ResilienceGate modelArmorAttemptGate(ObjectProvider<ModelArmorCircuitBreaker> circuitBreaker,
			ObjectProvider<QuotaLimiter> quotaLimiter, ObjectProvider<ResilienceObserver> observer) {
		return new ResilienceGate(circuitBreaker.getIfUnique(), quotaLimiter.getIfUnique(),
				observer.getIfUnique(() -> ResilienceObserver.NONE));
	}

	/**
	 * The meters, with Micrometer: the per-attempt counter, refusals and quota waits
	 * ({@link MicrometerResilienceObserver}), and the breaker's state and the retry budget as gauges.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static final class Meters {

		@Bean
		@ConditionalOnMissingBean(ResilienceObserver.class)
		ResilienceObserver modelArmorResilienceObserver(ObjectProvider<MeterRegistry> meterRegistry,
				TemplatesInUse templatesInUse) {
			MeterRegistry registry = meterRegistry.getIfUnique();
			return (registry != null)
					? new MicrometerResilienceObserver(registry, templatesInUse.tagValues())
					: ResilienceObserver.NONE;
		}

		@Bean
		SmartInitializingSingleton modelArmorResilienceGauges(ObjectProvider<MeterRegistry> meterRegistry,
				ObjectProvider<ModelArmorCircuitBreaker> circuitBreaker, ObjectProvider<RetryBudget> retryBudget) {
			return () -> {
				MeterRegistry registry = meterRegistry.getIfUnique();
				if (registry != null) {
					ModelArmorResilienceMeters.register(registry, circuitBreaker.getIfUnique(), retryBudget.getIfUnique());
				}
			};
		}

	}

	/** One bucket per Google Cloud project: the quota is the project's. */
	private static String key(@Nullable ModelArmorAuthorization authorization) {
		String project = null;
		try {
			project = (authorization != null) ? authorization.projectId() : null;
		}
		catch (RuntimeException ex) {
			// no project yet: the template's own bean fails startup naming it
		}
		return "modelarmor:quota:" + ((project != null) ? project : "default");
	}

	/** Loaded only when spring-data-redis and Bucket4j's Lettuce module are on the class path. */
	private static final class SharedQuota {

		static @Nullable QuotaLimiter limiter(BeanFactory beanFactory, String key,
				QuotaSettings settings, RetryRuntime runtime) {
			org.springframework.data.redis.connection.RedisConnectionFactory factory = beanFactory
				.getBeanProvider(org.springframework.data.redis.connection.RedisConnectionFactory.class)
				.getIfUnique();
			if (factory instanceof org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory lettuce) {
				return QuotaLimiter.shared(new RedisQuotaBucket(lettuce, key, settings, runtime.clock()), settings,
						runtime);
			}
			return null;
		}

	}

}
