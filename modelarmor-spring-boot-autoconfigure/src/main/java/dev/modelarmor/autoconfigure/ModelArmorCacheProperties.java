package dev.modelarmor.autoconfigure;

import java.time.Duration;

import dev.modelarmor.client.VerdictCache;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the verdict cache ({@code modelarmor.cache.*}): the verdict of a text already
 * screened with the same template is reused, through the application's Spring CacheManager, for a bounded
 * time.
 */
@ConfigurationProperties("modelarmor.cache")
public class ModelArmorCacheProperties {

	/**
	 * Whether to cache verdicts. Needs a CacheManager (spring-boot-starter-cache with @EnableCaching,
	 * or a CacheManager bean).
	 */
	private boolean enabled;

	/**
	 * Name of the cache that holds the verdicts.
	 */
	private String name = VerdictCache.DEFAULT_NAME;

	/**
	 * How long a verdict is reused, at most 24h. A template changed outside this application is
	 * seen only after it.
	 */
	private Duration timeToLive = VerdictCache.DEFAULT_TIME_TO_LIVE;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public Duration getTimeToLive() {
		return this.timeToLive;
	}

	public void setTimeToLive(Duration timeToLive) {
		this.timeToLive = timeToLive;
	}

}
