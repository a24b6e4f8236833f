package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * When a {@link RetryBudget} holds retries back, and to what. A location's retries are all allowed while at
 * most {@code failureRateThreshold} percent of its attempts over the last {@code window} failed; once more
 * have failed for {@code failingFor}, its retries may be {@code retryRatio} of its calls plus
 * {@code minRetriesPerSecond} a second, in the manner of Finagle's {@code RetryBudget}. Retries of HTTP 429
 * (the project's quota is spent, the service is up) get a floor of at most
 * {@link #TOO_MANY_REQUESTS_RETRIES_PER_SECOND}.
 *
 * @param retryRatio retries allowed per call once the budget holds retries back, from 0 to 10 ({@code 0.2}:
 * one retry for every five calls)
 * @param minRetriesPerSecond retries allowed a second whatever the traffic once the budget holds retries back,
 * from 0 to 10,000, so that a quiet application's calls keep their retries
 * @param window the time over which calls, retries and failures are counted, from 1 s to 10 min, in whole
 * seconds
 * @param failureRateThreshold the percentage of failed attempts above which retries are held back, from 0
 * (always) to 100
 * @param failingFor how long the failure rate must stay above the threshold before retries are held back,
 * from 0 to 1 hour
 */
public record RetryBudgetSettings(double retryRatio, int minRetriesPerSecond, Duration window,
		float failureRateThreshold, Duration failingFor) {

	/**
	 * The floor of retries of HTTP 429 a second (never above {@link #minRetriesPerSecond}): a lone 429 is still
	 * retried, a storm of them adds about the ratio to the load.
	 */
	public static final int TOO_MANY_REQUESTS_RETRIES_PER_SECOND = 1;

	/**
	 * Every retry while at most half of the attempts of the last 10 s failed; after 5 s above that, 20 % of
	 * the calls plus 1 a second. A single call's retries, a 3 s blip's and a server failing 30 % of attempts at
	 * random, at any rate, are never held back; a sustained storm is held to about 1.2 × the offered load and
	 * one more a second.
	 */
	public static final RetryBudgetSettings DEFAULTS = new RetryBudgetSettings(0.2, 1, Duration.ofSeconds(10), 50,
			Duration.ofSeconds(5));

	/**
	 * Rejects values the budget cannot work with, naming the setting.
	 */
	public RetryBudgetSettings {
		Objects.requireNonNull(window, "window");
		Objects.requireNonNull(failingFor, "failingFor");
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
		if (!(failureRateThreshold >= 0 && failureRateThreshold <= 100)) {
			throw new InvalidSettingException("budget.failure-rate-threshold", failureRateThreshold,
					"must be from 0 to 100 (a percentage)");
		}
		if (failingFor.isNegative() || failingFor.compareTo(Duration.ofHours(1)) > 0) {
			throw new InvalidSettingException("budget.failing-for", failingFor, "must be from 0 to 1h");
		}
	}

	/**
	 * A budget that holds every retry to the ratio and the floor, whatever the failure rate (a threshold and a
	 * {@code failingFor} of zero).
	 * @param retryRatio retries allowed per call
	 * @param minRetriesPerSecond retries allowed a second whatever the traffic
	 * @param window the time over which calls and retries are counted
	 */
	public RetryBudgetSettings(double retryRatio, int minRetriesPerSecond, Duration window) {
		this(retryRatio, minRetriesPerSecond, window, 0, Duration.ZERO);
	}

}
