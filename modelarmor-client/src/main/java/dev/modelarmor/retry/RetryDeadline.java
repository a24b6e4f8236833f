package dev.modelarmor.retry;

import java.time.Clock;
import java.time.DateTimeException;
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
	 * A deadline that expires {@code budget} from now; a budget that would end beyond the range of
	 * {@link Instant} ends at its edge instead of overflowing.
	 * @param clock the clock
	 * @param budget the time from now
	 * @return the deadline
	 */
	public static RetryDeadline startingNow(Clock clock, Duration budget) {
		Instant now = clock.instant();
		Instant expiry;
		try {
			expiry = now.plus(budget);
		}
		catch (DateTimeException | ArithmeticException ex) {
			// past the range of Instant: only then the edge, so that a call does not pay two Duration.between
			expiry = budget.isNegative() ? Instant.MIN : Instant.MAX;
		}
		return new RetryDeadline(expiry, clock);
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
	 * Whether a wait started now would end no later than the deadline. Compares durations rather than
	 * adding the wait to the clock, so that no wait, however long, can overflow.
	 * @param wait the wait
	 * @return {@code true} when the wait fits
	 */
	boolean fits(Duration wait) {
		return wait.compareTo(Duration.between(this.clock.instant(), this.expiry)) <= 0;
	}

}
