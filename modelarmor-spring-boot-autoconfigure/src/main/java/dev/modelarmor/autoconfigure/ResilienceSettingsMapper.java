package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.InvalidSettingException;

import static dev.modelarmor.autoconfigure.PropertyValues.invalid;

/**
 * Maps {@code modelarmor.quota.*} and {@code modelarmor.circuit-breaker.*} onto {@link QuotaSettings} and
 * {@link CircuitBreakerSettings}. Both are checked whether the quota or the breaker is enabled or not, like
 * every other property, so that enabling one later cannot reveal a value refused only then.
 */
final class ResilienceSettingsMapper {

	private ResilienceSettingsMapper() {
	}

	/**
	 * The quota.
	 * @param quota {@code modelarmor.quota.*}
	 * @return the settings; the fallback quota is the whole quota when unset
	 * @throws ModelArmorConfigurationException naming the first property the settings refuse
	 */
	static QuotaSettings quota(ModelArmorProperties.Quota quota) {
		try {
			Integer fallback = quota.getFallbackQueriesPerMinute();
			return new QuotaSettings(quota.getQueriesPerMinute(), quota.getMaxWait(), quota.getRedisTimeout(),
					(fallback != null) ? fallback : quota.getQueriesPerMinute());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.quota.", ex);
		}
	}

	/**
	 * The circuit breaker.
	 * @param breaker {@code modelarmor.circuit-breaker.*}
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property the settings refuse
	 */
	static CircuitBreakerSettings circuitBreaker(ModelArmorProperties.CircuitBreaker breaker) {
		try {
			return new CircuitBreakerSettings(breaker.getFailureRateThreshold(), breaker.getWindowSize(),
					breaker.getWaitInOpenState(), breaker.getHalfOpenProbes(), breaker.getFailingFor());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.circuit-breaker.", ex);
		}
	}

}
