package dev.modelarmor.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The moment after which a call starts no more retries, counted from the start of its first attempt.
 *
 * @param expiry when the deadline passes
 * @param clock the clock that tells the time
 */
public record RetryDeadline(Instant expiry, Clock clock) {

	/**
	 * A deadline that expires {@code budget} from now.
	 * @param clock the clock
	 * @param budget the time from now
	 * @return the deadline
	 */
	public static RetryDeadline startingNow(Clock clock, Duration budget) {
		return new RetryDeadline(clock.instant().plus(budget), clock);
	}

	/**
	 * The time left, never negative.
	 * @return what is left of the deadline
	 */
	public Duration remaining() {
		Duration left = Duration.between(this.clock.instant(), this.expiry);
		return left.isNegative() ? Duration.ZERO : left;
	}

	/**
	 * Whether a wait started now would end no later than the deadline.
	 * @param wait the wait
	 * @return {@code true} when the wait fits
	 */
	public boolean fits(Duration wait) {
		return !this.clock.instant().plus(wait).isAfter(this.expiry);
	}

}
