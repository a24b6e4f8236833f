package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How Model Armor calls are retried.
 *
 * @param schedule the waits between attempts
 * @param deadline the total time, from the start of the first attempt, after which no retry starts;
 * a wait that would end past it is not slept
 * @param retryTooManyRequests whether HTTP 429 is retried (500, 502, 503, 504 and I/O failures always are)
 * @param honorRetryAfter whether a server's {@code Retry-After} or {@code RetryInfo} hint raises the next wait
 * @param budget the retry budget of each client, or {@code null} for none
 */
public record RetrySettings(BackoffSchedule schedule, Duration deadline, boolean retryTooManyRequests,
		boolean honorRetryAfter, @Nullable RetryBudgetSettings budget) {

	/** Google's schedule, a 60 s deadline, 429 retried, server hints honoured. */
	public static final RetrySettings DEFAULTS = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT,
			Duration.ofSeconds(60), true, true);

	/**
	 * Creates settings, rejecting a deadline that is not positive.
	 */
	public RetrySettings {
		Objects.requireNonNull(schedule, "schedule");
		Objects.requireNonNull(deadline, "deadline");
		if (deadline.isNegative() || deadline.isZero()) {
			throw new InvalidRetrySettingException("deadline", deadline, "must be positive");
		}
	}

	/**
	 * Settings without a retry budget.
	 * @param schedule the waits between attempts
	 * @param deadline the total time after which no retry starts
	 * @param retryTooManyRequests whether HTTP 429 is retried
	 * @param honorRetryAfter whether a server's retry hint raises the next wait
	 */
	public RetrySettings(BackoffSchedule schedule, Duration deadline, boolean retryTooManyRequests,
			boolean honorRetryAfter) {
		this(schedule, deadline, retryTooManyRequests, honorRetryAfter, null);
	}

	/**
	 * These settings with a retry budget.
	 * @param budget the budget of each client
	 * @return the settings
	 */
	public RetrySettings withBudget(RetryBudgetSettings budget) {
		return new RetrySettings(this.schedule, this.deadline, this.retryTooManyRequests, this.honorRetryAfter, budget);
	}

}
