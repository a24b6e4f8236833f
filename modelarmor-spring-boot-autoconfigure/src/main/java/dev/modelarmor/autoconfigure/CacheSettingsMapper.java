package dev.modelarmor.autoconfigure;

import java.time.Duration;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictSigningKeys;

import org.springframework.cache.Cache;
import org.springframework.util.StringUtils;

/**
 * Maps {@code modelarmor.cache.*} onto {@link VerdictCache.Settings} for one cache: a cache outside this
 * process needs {@code modelarmor.cache.signing-key}, and no operation of the cache may take longer than a
 * call's retry deadline.
 */
final class CacheSettingsMapper {

	static final String SIGNING_KEY = "modelarmor.cache.signing-key";

	private CacheSettingsMapper() {
	}

	/**
	 * Checks the properties that need no cache, whether the cache is enabled or not, like every other
	 * property.
	 * @param properties {@code modelarmor.cache.*}
	 * @throws ModelArmorConfigurationException naming the first property that is refused
	 */
	static void check(ModelArmorCacheProperties properties) {
		PropertyValues.requireNotBlank("modelarmor.cache.name", properties.getName(), "remove it or name a cache");
		try {
			VerdictCache.requireTimeToLive(properties.getTimeToLive());
		}
		catch (InvalidSettingException ex) {
			throw PropertyValues.invalid("modelarmor.cache.", ex);
		}
	}

	/**
	 * The settings of one cache.
	 * @param properties {@code modelarmor.cache.*}
	 * @param cache the cache the verdicts are kept in
	 * @param retry the retry strategy, whose deadline bounds each operation of the cache
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the property that is refused
	 */
	static VerdictCache.Settings settings(ModelArmorCacheProperties properties, Cache cache, RetrySettings retry) {
		VerdictSigningKeys keys = signingKeys(properties, cache);
		Duration timeout = properties.getOperationTimeout();
		if (timeout != null && timeout.compareTo(retry.deadline()) > 0) {
			timeout = retry.deadline();
		}
		try {
			return new VerdictCache.Settings(properties.getTimeToLive(), timeout, properties.getFailuresToSkip(),
					properties.getSkipFor(), keys);
		}
		catch (InvalidSettingException ex) {
			throw PropertyValues.invalid("modelarmor.cache.", ex);
		}
	}

	private static VerdictSigningKeys signingKeys(ModelArmorCacheProperties properties, Cache cache) {
		String key = properties.getSigningKey();
		if (!StringUtils.hasText(key)) {
			if (VerdictCache.inProcess(cache)) {
				return VerdictSigningKeys.random();
			}
			throw new ModelArmorConfigurationException(SIGNING_KEY,
					"the verdict cache '" + cache.getName() + "' (" + cache.getClass().getName()
							+ ") is not known to live in this process, and whoever can read it could confirm a guessed "
							+ "prompt and whoever can write it could forge a verdict without a signing key",
					"Generate one with 'openssl rand -base64 32' and set " + SIGNING_KEY
							+ " to it, the same on every instance that shares the cache (from a secret store, not "
							+ "the source tree)");
		}
		try {
			return VerdictSigningKeys.of(key, properties.getPreviousSigningKeys());
		}
		catch (IllegalArgumentException ex) {
			// The message names the problem (not Base64, too short), never the key.
			boolean previous = ex.getMessage() != null && ex.getMessage().startsWith("a previous");
			String property = previous ? "modelarmor.cache.previous-signing-keys" : SIGNING_KEY;
			throw new ModelArmorConfigurationException(property, String.valueOf(ex.getMessage()),
					"Generate a key with 'openssl rand -base64 32' (at least " + VerdictSigningKeys.MIN_KEY_BYTES
							+ " bytes, Base64)");
		}
	}

}
