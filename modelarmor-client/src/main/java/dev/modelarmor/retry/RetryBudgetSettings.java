package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * The size of a {@link RetryBudget}, in the manner of Finagle's {@code RetryBudget}: over the last
 * {@code window}, the retries of one client may be {@code retryRatio} of its calls plus
 * {@code minRetriesPerSecond} a second. Retries of HTTP 429 (the project's quota is spent, the service is up)
 * get a floor of at most {@link #TOO_MANY_REQUESTS_RETRIES_PER_SECOND}: retrying a spent quota only adds to
 * it, so in a quota storm the ratio bounds what retries add to the offered load.
 *
 * @param retryRatio retries allowed per call, from 0 to 10 ({@code 0.2}: one retry for every five calls)
 * @param minRetriesPerSecond retries allowed a second whatever the traffic, from 0 to 10,000, so that a
 * quiet application's calls keep their retries
 * @param window the time over which calls and retries are counted, from 1 s to 10 min, in whole seconds
 */
public record RetryBudgetSettings(double retryRatio, int minRetriesPerSecond, Duration window) {

	/**
	 * The floor of retries of HTTP 429 a second (never above {@link #minRetriesPerSecond}): a lone 429 is still
	 * retried, a storm of them adds about the ratio to the load.
	 */
	public static final int TOO_MANY_REQUESTS_RETRIES_PER_SECOND = 1;

	/**
	 * Finagle's defaults: 20 % of calls plus 10 retries a second over 10 s. A single call's retries (a few over
	 * its 60 s deadline) and a burst's (about three retries for each call of a 3 s blip) fit; a sustained
	 * storm is held to about 1.2 × the offered load and 10 more a second.
	 */
	public static final RetryBudgetSettings DEFAULTS = new RetryBudgetSettings(0.2, 10, Duration.ofSeconds(10));

	/**
	 * Rejects values the budget cannot work with, naming the setting.
	 */
	public RetryBudgetSettings {
		Objects.requireNonNull(window, "window");
		if (!(retryRatio >= 0 && retryRatio <= 10)) {
			throw new InvalidSettingException("budget.retry-ratio", retryRatio, "must be from 0 to 10 (retries per call)");
		}
		if (minRetriesPerSecond < 0 || minRetriesPerSecond > 10_000) {
			throw new InvalidSettingException("budget.min-retries-per-second", minRetriesPerSecond,
					"must be from 0 to 10000");
		}
		if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(Duration.ofMinutes(10)) > 0
				|| window.toMillis() % 1000 != 0) {
			throw new InvalidSettingException("budget.window", window, "must be whole seconds from 1s to 10m");
		}
	}

}
