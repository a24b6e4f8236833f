package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.RetryAfterHints;

import java.time.Duration;
import java.util.Locale;
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
 * @param jitterMode how the random part of each wait is drawn; {@link JitterMode#GOOGLE} (the specification)
 * unless set
 */
public record RetrySettings(BackoffSchedule schedule, Duration deadline, boolean retryTooManyRequests,
		boolean honorRetryAfter, @Nullable RetryBudgetSettings budget, JitterMode jitterMode) {

	/**
	 * The longest deadline: a day. Retrying one call for longer is never what a caller wants, and a bound
	 * lets every server hint longer than it be read as "too long" (see {@link RetryAfterHints#TOO_LONG})
	 * without any arithmetic that could overflow.
	 */
	public static final Duration MAX_DEADLINE = Duration.ofDays(1);

	/** Google's schedule, a 60 s deadline, 429 retried, server hints honoured. */
	public static final RetrySettings DEFAULTS = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT,
			Duration.ofSeconds(60), true, true);

	/**
	 * Creates settings, rejecting a deadline that is not positive or longer than {@link #MAX_DEADLINE}, and a
	 * zero initial backoff with a jitter mode whose waits it alone scales (full or decorrelated jitter would
	 * then never wait).
	 */
	public RetrySettings {
		Objects.requireNonNull(schedule, "schedule");
		Objects.requireNonNull(deadline, "deadline");
		Objects.requireNonNull(jitterMode, "jitterMode");
		if (deadline.isNegative() || deadline.isZero()) {
			throw new InvalidSettingException("deadline", deadline, "must be positive");
		}
		if (deadline.compareTo(MAX_DEADLINE) > 0) {
			throw new InvalidSettingException("deadline", deadline,
					"must not be longer than " + MAX_DEADLINE.toHours() + "h");
		}
		if (jitterMode != JitterMode.GOOGLE && schedule.initialBackoff().isZero()) {
			throw new InvalidSettingException("initial-backoff", schedule.initialBackoff(),
					"must be positive with jitter-mode " + jitterMode.name().toLowerCase(Locale.ROOT)
							+ ": every wait would be zero and retries would hammer Model Armor");
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
		this(schedule, deadline, retryTooManyRequests, honorRetryAfter, null, JitterMode.GOOGLE);
	}

	/**
	 * These settings with a retry budget.
	 * @param budget the budget of each client
	 * @return the settings
	 */
	public RetrySettings withBudget(RetryBudgetSettings budget) {
		return new RetrySettings(this.schedule, this.deadline, this.retryTooManyRequests, this.honorRetryAfter, budget,
				this.jitterMode);
	}

	/**
	 * These settings with another jitter mode; the schedule, deadline and hint rules stay as they are.
	 * @param jitterMode how the random part of each wait is drawn
	 * @return the settings
	 */
	public RetrySettings withJitterMode(JitterMode jitterMode) {
		return new RetrySettings(this.schedule, this.deadline, this.retryTooManyRequests, this.honorRetryAfter,
				this.budget, jitterMode);
	}

}
