package dev.modelarmor.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code modelArmor} health indicator ({@code modelarmor.health.*}), enabled
 * with {@code management.health.modelarmor.enabled=true}.
 */
@ConfigurationProperties("modelarmor.health")
public class ModelArmorHealthProperties {

	/**
	 * How long a health check's result is reused before Model Armor is asked again. Zero asks on
	 * every check.
	 */
	private Duration cacheTimeToLive = Duration.ofSeconds(30);

	public Duration getCacheTimeToLive() {
		return this.cacheTimeToLive;
	}

	public void setCacheTimeToLive(Duration cacheTimeToLive) {
		this.cacheTimeToLive = cacheTimeToLive;
	}

}
