package dev.modelarmor.autoconfigure;

import java.time.Duration;

import dev.modelarmor.client.ModelArmorConfigurationException;

/**
 * Maps {@code modelarmor.health.*} onto the health indicator's settings, checked whether the indicator is
 * enabled or not, like every other property.
 */
final class HealthSettingsMapper {

	private HealthSettingsMapper() {
	}

	/**
	 * How long a health check's result is reused.
	 * @param health {@code modelarmor.health.*}
	 * @return the time, zero or more
	 * @throws ModelArmorConfigurationException when it is negative
	 */
	static Duration cacheTimeToLive(ModelArmorHealthProperties health) {
		Duration cacheTimeToLive = health.getCacheTimeToLive();
		if (cacheTimeToLive.isNegative()) {
			throw PropertyValues.invalid("modelarmor.health.cache-time-to-live", cacheTimeToLive, "must not be negative");
		}
		return cacheTimeToLive;
	}

}
