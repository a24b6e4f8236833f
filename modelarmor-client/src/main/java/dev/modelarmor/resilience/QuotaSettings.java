package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.retry.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * The project's Model Armor quota as the limiter keeps it: a token bucket of {@link #capacity()} permits
 * refilled with {@link #refillPerMinute()} permits a minute, so that the permits handed out in any 60 s
 * window, the full bucket plus a minute's refill, are at most {@code queriesPerMinute}.
 *
 * @param queriesPerMinute the quota, from 2 to 1,000,000 (Model Armor's default is 1,200)
 * @param maxWait the longest a call waits for a permit, never more than what is left of its deadline; zero
 * for not at all; {@code null} (the default) for as long as its deadline allows, as Google's strategy would
 * have retried a 429 until then
 * @param redisTimeout the longest one Redis operation of the shared bucket may take before the limiter
 * falls back to its in-process bucket, from 1 ms to 10 s
 * @param fallbackQueriesPerMinute the quota this instance keeps by itself while the shared bucket cannot be
 * used, from 2 to {@code queriesPerMinute}
 */
public record QuotaSettings(int queriesPerMinute, @Nullable Duration maxWait, Duration redisTimeout,
		int fallbackQueriesPerMinute) {

	/** Model Armor's default quota: 1,200 queries per minute. */
	public static final int DEFAULT_QUERIES_PER_MINUTE = 1200;

	/**
	 * 1,200 queries per minute, a wait as long as the call's deadline allows, 100 ms for each Redis operation.
	 */
	public static final QuotaSettings DEFAULTS = new QuotaSettings(DEFAULT_QUERIES_PER_MINUTE, null,
			Duration.ofMillis(100));

	/**
	 * Rejects values the limiter cannot keep, naming the setting.
	 */
	public QuotaSettings {
		Objects.requireNonNull(redisTimeout, "redisTimeout");
		if (queriesPerMinute < 2 || queriesPerMinute > 1_000_000) {
			throw new InvalidSettingException("queries-per-minute", queriesPerMinute, "must be from 2 to 1000000");
		}
		if (maxWait != null && maxWait.isNegative()) {
			throw new InvalidSettingException("max-wait", maxWait, "must not be negative");
		}
		if (redisTimeout.compareTo(Duration.ofMillis(1)) < 0 || redisTimeout.compareTo(Duration.ofSeconds(10)) > 0) {
			throw new InvalidSettingException("redis-timeout", redisTimeout, "must be from 1ms to 10s");
		}
		if (fallbackQueriesPerMinute < 2 || fallbackQueriesPerMinute > queriesPerMinute) {
			throw new InvalidSettingException("fallback-queries-per-minute", fallbackQueriesPerMinute,
					"must be from 2 to queries-per-minute (" + queriesPerMinute + ")");
		}
	}

	/**
	 * Settings whose fallback quota is the whole quota, as with a single instance.
	 * @param queriesPerMinute the quota
	 * @param maxWait the longest a call waits for a permit, or {@code null} for as long as its deadline allows
	 * @param redisTimeout the longest one Redis operation may take
	 */
	public QuotaSettings(int queriesPerMinute, @Nullable Duration maxWait, Duration redisTimeout) {
		this(queriesPerMinute, maxWait, redisTimeout, queriesPerMinute);
	}

	/**
	 * The settings of the in-process bucket that stands in while the shared one cannot be used.
	 * @return these settings with {@link #fallbackQueriesPerMinute()} as the quota
	 */
	public QuotaSettings fallback() {
		return new QuotaSettings(this.fallbackQueriesPerMinute, this.maxWait, this.redisTimeout);
	}

	/**
	 * The bucket's size, the burst it allows: one second's share of the quota, at least one permit.
	 * @return the capacity
	 */
	public long capacity() {
		return Math.max(1, this.queriesPerMinute / 60);
	}

	/**
	 * The permits added a minute, continuously: the quota less the capacity, so that capacity plus a
	 * minute's refill never exceeds the quota.
	 * @return the refill per minute
	 */
	public long refillPerMinute() {
		return this.queriesPerMinute - capacity();
	}

}
