package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.screening.cache.VerdictCache;
import org.jspecify.annotations.Nullable;

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

	/**
	 * The longest one lookup, write or clear of the cache may hold a screening, at most 5s; a cache
	 * that takes longer is a miss. Never more than the retry deadline.
	 */
	private Duration operationTimeout = VerdictCache.DEFAULT_OPERATION_TIMEOUT;

	/**
	 * Errors in a row after which the cache is skipped for skip-for; an operation that times out skips it
	 * at once.
	 */
	private int failuresToSkip = VerdictCache.DEFAULT_FAILURES_TO_SKIP;

	/**
	 * How long a failing cache is skipped before it is tried again.
	 */
	private Duration skipFor = VerdictCache.DEFAULT_SKIP_FOR;

	/**
	 * Key (Base64, at least 32 bytes: openssl rand -base64 32) that stored keys are computed with
	 * and values signed with (HmacSHA256). Required for a cache outside this process (Redis, ...); the
	 * same on every instance that shares the cache. An in-process cache without it uses a random key.
	 */
	private @Nullable String signingKey;

	/**
	 * Keys that signed before signing-key was rotated: values signed with one are a miss and screened
	 * again, not reported as forgeries.
	 */
	private List<String> previousSigningKeys = new ArrayList<>();

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

	public Duration getOperationTimeout() {
		return this.operationTimeout;
	}

	public void setOperationTimeout(Duration operationTimeout) {
		this.operationTimeout = operationTimeout;
	}

	public int getFailuresToSkip() {
		return this.failuresToSkip;
	}

	public void setFailuresToSkip(int failuresToSkip) {
		this.failuresToSkip = failuresToSkip;
	}

	public Duration getSkipFor() {
		return this.skipFor;
	}

	public void setSkipFor(Duration skipFor) {
		this.skipFor = skipFor;
	}

	public @Nullable String getSigningKey() {
		return this.signingKey;
	}

	public void setSigningKey(@Nullable String signingKey) {
		this.signingKey = signingKey;
	}

	public List<String> getPreviousSigningKeys() {
		return this.previousSigningKeys;
	}

	public void setPreviousSigningKeys(List<String> previousSigningKeys) {
		this.previousSigningKeys = previousSigningKeys;
	}

}
