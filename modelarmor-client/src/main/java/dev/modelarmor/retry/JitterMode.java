package dev.modelarmor.retry;

import java.time.Duration;
import java.util.random.RandomGenerator;

import org.jspecify.annotations.Nullable;

/**
 * How the random part of each wait is drawn. All modes are truncated at the schedule's
 * {@code maxBackoff}, and the {@link RetryTimeline} applies the same deadline and server-hint rules to
 * every mode; only the arithmetic of the wait differs. With {@code b} the schedule's initial backoff,
 * {@code cap} its maximum backoff and {@code n} the retry's index (from 0):
 *
 * <ul>
 * <li>{@link #GOOGLE}: the specification, {@code min(b·2^n + U[0, jitter], cap)}. The default.</li>
 * <li>{@link #FULL}: "full jitter", {@code U[0, min(cap, b·2^n)]}; the schedule's {@code jitter} is not used.</li>
 * <li>{@link #DECORRELATED}: AWS's "decorrelated jitter", {@code min(cap, U[b, previous × 3])}, where
 * {@code previous} is this mode's previous wait of the same call and {@code b} before the first retry; the
 * schedule's {@code jitter} is not used.</li>
 * </ul>
 *
 * <p>Full and decorrelated jitter spread many clients' retries over the whole interval rather than one
 * jitter unit, so a crowd of clients failing together does not come back in lock-step (see
 * {@code docs/retry-storm.md}). Every draw is inclusive of both ends, in whole milliseconds.
 */
public enum JitterMode {

	/** {@code min(b·2^n + U[0, jitter], cap)}: Google's retry strategy as specified. */
	GOOGLE,

	/** {@code U[0, min(cap, b·2^n)]}: full jitter. */
	FULL,

	/** {@code min(cap, U[b, previous × 3])}: decorrelated jitter. */
	DECORRELATED;

	/**
	 * The wait before a retry. Pure: the only state is {@code previous}, which the caller keeps.
	 * @param schedule the initial backoff, jitter (used by {@link #GOOGLE} only) and cap
	 * @param retry the retry's index: 0 for the first retry (the second attempt)
	 * @param previous the wait this mode returned for the previous retry of the same call, or
	 * {@code null} before the first retry (only {@link #DECORRELATED} reads it)
	 * @param random the source of the random part, asked at most once
	 * @return a wait, never above the schedule's {@code maxBackoff}
	 */
	Duration delayBeforeRetry(BackoffSchedule schedule, int retry, @Nullable Duration previous,
			RandomGenerator random) {
		if (retry < 0) {
			throw new IllegalArgumentException("retry must not be negative: " + retry);
		}
		return switch (this) {
			case GOOGLE -> schedule.delayBeforeRetry(retry, random);
			case FULL -> Duration.ofMillis(full(schedule, retry, random));
			case DECORRELATED -> Duration.ofMillis(decorrelated(schedule, previous, random));
		};
	}

	private static long full(BackoffSchedule schedule, int retry, RandomGenerator random) {
		long cap = BackoffSchedule.saturatedMillis(schedule.maxBackoff());
		long ceiling = Math.min(cap, BackoffSchedule.doubled(BackoffSchedule.saturatedMillis(schedule.initialBackoff()), retry));
		return inclusive(random, 0, ceiling);
	}

	private static long decorrelated(BackoffSchedule schedule, @Nullable Duration previous, RandomGenerator random) {
		long cap = BackoffSchedule.saturatedMillis(schedule.maxBackoff());
		long base = BackoffSchedule.saturatedMillis(schedule.initialBackoff());
		long last = (previous != null) ? BackoffSchedule.saturatedMillis(previous) : base;
		long upper = Math.max(base, tripled(last));
		return Math.min(cap, inclusive(random, base, upper));
	}

	/** A draw from {@code [low, high]}, both ends included. */
	private static long inclusive(RandomGenerator random, long low, long high) {
		if (high <= low) {
			return low;
		}
		return (high == Long.MAX_VALUE) ? random.nextLong(low, high) : random.nextLong(low, high + 1);
	}

	private static long tripled(long value) {
		return (value > Long.MAX_VALUE / 3) ? Long.MAX_VALUE : value * 3;
	}

}
