package dev.modelarmor.autoconfigure;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.modelarmor.client.ModelArmorConfigurationException;

import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The verdict cache on Spring Data Redis: the verdicts are signed JSON strings, stored as text (UTF-8)
 * with the verdict cache's time to live as the entry's, never with Java serialization (Spring Data
 * Redis' default, which would deserialize whatever a writer of Redis put there). Only the starter's cache
 * is configured; the application's other caches keep their settings.
 */
final class ModelArmorRedisVerdicts implements RedisCacheManagerBuilderCustomizer {

	private static final String PROBE = "{\"kid\":\"probe\"}";

	private final String cacheName;

	private final Duration timeToLive;

	ModelArmorRedisVerdicts(String cacheName, Duration timeToLive) {
		this.cacheName = cacheName;
		this.timeToLive = timeToLive;
	}

	@Override
	public void customize(RedisCacheManagerBuilder builder) {
		// Boot's spring.cache.redis.* (key prefix, null values) as the defaults, text and one TTL on top.
		RedisCacheConfiguration configuration = builder.getCacheConfigurationFor(this.cacheName)
			.orElseGet(builder::cacheDefaults)
			.entryTtl(this.timeToLive)
			.serializeValuesWith(SerializationPair.fromSerializer(RedisSerializer.string()));
		builder.withCacheConfiguration(this.cacheName, configuration);
	}

	/**
	 * Refuses a Redis cache that would not store the verdicts as text: one from a {@code RedisCacheManager}
	 * the application built itself, with Java serialization or a JSON serializer of its own.
	 * @param cache the verdict cache
	 */
	static void requireText(Cache cache) {
		if (!(cache instanceof RedisCache redis)) {
			return;
		}
		SerializationPair<Object> values = redis.getCacheConfiguration().getValueSerializationPair();
		ByteBuffer written = values.write(PROBE);
		byte[] bytes = new byte[written.remaining()];
		written.get(bytes);
		if (!new String(bytes, StandardCharsets.UTF_8).equals(PROBE)) {
			throw new ModelArmorConfigurationException("modelarmor.cache.name",
					"the Redis cache '" + cache.getName()
							+ "' does not store values as text: its value serializer would read back whatever a "
							+ "writer of Redis put there (Java serialization by default)",
					"Let Spring Boot build the RedisCacheManager (spring.cache.type=redis), which the starter "
							+ "configures for this cache, or give this cache RedisSerializer.string() as its value "
							+ "serializer");
		}
	}

}
