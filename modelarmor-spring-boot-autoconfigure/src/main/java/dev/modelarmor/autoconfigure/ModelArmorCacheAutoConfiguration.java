package dev.modelarmor.autoconfigure;

import java.time.Clock;
import java.util.List;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.internal.ModelArmorThreads;
import dev.modelarmor.observation.internal.MicrometerVerdictCacheObserver;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictCacheObserver;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of the verdict cache, with {@code modelarmor.cache.enabled=true}: a
 * {@link VerdictCache} over the cache {@code modelarmor.cache.name} of the application's
 * {@link CacheManager} (Caffeine in one process, Redis for a fleet that shares verdicts, …), used by the
 * {@link ModelArmorScreening} bean that every integration screens through ({@code @ModelArmorGuarded}, the
 * Spring AI advisor, documents and tools), and told of every template changed through the
 * {@link ModelArmorTemplate} bean's {@code templates()}. Lookups are counted when Micrometer is present.
 * Without a {@code CacheManager}, or when it has no cache of that name, startup fails naming the property;
 * so does a cache outside this process (anything but a {@code ConcurrentMapCache} or a
 * {@code CaffeineCache}) without {@code modelarmor.cache.signing-key}. On Spring Boot's Redis cache, the
 * starter's cache stores its signed JSON values as text with the verdicts' time to live.
 */
@AutoConfiguration(after = ModelArmorAutoConfiguration.class,
		afterName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("modelarmor.cache.enabled")
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorScreeningConfiguration.class })
@EnableConfigurationProperties(ModelArmorCacheProperties.class)
public final class ModelArmorCacheAutoConfiguration {

	private static final String REDIS_CACHE = "org.springframework.data.redis.cache.RedisCache";

	@Bean
	@ConditionalOnMissingBean
	VerdictCache modelArmorVerdictCache(ObjectProvider<CacheManager> cacheManager, ModelArmorCacheProperties settings,
			ModelArmorSettings modelArmorSettings, ObjectProvider<VerdictCacheObserver> observer, Environment environment,
			ObjectProvider<ModelArmorThreads> modelArmorThreads) {
		CacheManager manager = cacheManager.getIfUnique();
		if (manager == null) {
			throw new ModelArmorConfigurationException("modelarmor.cache.enabled",
					"the verdict cache is enabled but the application has no single CacheManager",
					"Add spring-boot-starter-cache with @EnableCaching and a cache provider (Caffeine, Redis, …), "
							+ "or define a CacheManager bean, or set modelarmor.cache.enabled=false");
		}
		Cache cache = manager.getCache(settings.getName());
		if (cache == null) {
			throw new ModelArmorConfigurationException("modelarmor.cache.name",
					"the CacheManager has no cache named '" + settings.getName() + "'",
					"Add it to spring.cache.cache-names, or change modelarmor.cache.name to a cache it has");
		}
		if (ClassUtils.isPresent(REDIS_CACHE, ModelArmorCacheAutoConfiguration.class.getClassLoader())) {
			ModelArmorRedisVerdicts.requireText(cache);
		}
		VerdictCache.Settings checked;
		try {
			checked = CacheSettingsMapper.settings(settings, cache, modelArmorSettings.retry());
		}
		catch (InvalidPropertyValue ex) {
			throw InvalidPropertyValue.asConfigured(List.of(ex), environment).get(0);
		}
		return new VerdictCache(cache, checked, Clock.systemUTC(), observer.getIfAvailable(() -> VerdictCacheObserver.NONE),
				ModelArmorThreads.virtual(modelArmorThreads.getIfAvailable()));
	}

	@Bean
	static ModelArmorCachePostProcessor modelArmorCachePostProcessor(ObjectProvider<VerdictCache> modelArmorVerdictCache) {
		return new ModelArmorCachePostProcessor(modelArmorVerdictCache);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ RedisCacheManagerBuilderCustomizer.class, RedisCacheConfiguration.class })
	static class RedisVerdictsConfiguration {

		@Bean
		ModelArmorRedisVerdicts modelArmorRedisVerdicts(ModelArmorCacheProperties cache) {
			return new ModelArmorRedisVerdicts(cache.getName(), cache.getTimeToLive());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class VerdictCacheMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(VerdictCacheObserver.class)
		MicrometerVerdictCacheObserver modelArmorVerdictCacheObserver(ObjectProvider<MeterRegistry> meterRegistry) {
			return new MicrometerVerdictCacheObserver(meterRegistry.getIfUnique());
		}

	}

}
