package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * How Model Armor calls are retried.
 *
 * @param schedule the waits between attempts
 * @param deadline the total time, from the start of the first attempt, after which no retry starts;
 * a wait that would end past it is not slept
 * @param retryTooManyRequests whether HTTP 429 is retried (500, 502, 503, 504 and I/O failures always are)
 * @param honorRetryAfter whether a server's {@code Retry-After} or {@code RetryInfo} hint raises the next wait
 */
public record RetrySettings(BackoffSchedule schedule, Duration deadline, boolean retryTooManyRequests,
		boolean honorRetryAfter) {

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

}
