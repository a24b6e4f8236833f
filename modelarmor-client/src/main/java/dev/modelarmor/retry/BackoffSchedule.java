package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Google's schedule: truncated exponential backoff with jitter. The wait before retry {@code n}
 * (counting from 0) is {@code min(initialBackoff × 2^n + U[0, jitter], maxBackoff)}, with the random
 * part drawn afresh for every retry. With Google's values (1 s, 1 s, 32 s) the waits are
 * 1–2 s, 2–3 s, 4–5 s, 8–9 s, 16–17 s, then 32 s.
 *
 * @param initialBackoff the wait before the first retry, before jitter
 * @param jitter the upper bound (inclusive) of the random fraction added to each wait; zero for none
 * @param maxBackoff the cap that no wait exceeds
 */
public record BackoffSchedule(Duration initialBackoff, Duration jitter, Duration maxBackoff) {

	/** Google's recommended schedule: 1 s doubling, up to 1 s of jitter, capped at 32 s. */
	public static final BackoffSchedule GOOGLE_DEFAULT = new BackoffSchedule(Duration.ofSeconds(1),
			Duration.ofSeconds(1), Duration.ofSeconds(32));

	/**
	 * Creates a schedule, rejecting negative values, a cap below the initial backoff, and a schedule that
	 * never waits.
	 */
	public BackoffSchedule {
		Objects.requireNonNull(initialBackoff, "initialBackoff");
		Objects.requireNonNull(jitter, "jitter");
		Objects.requireNonNull(maxBackoff, "maxBackoff");
		InvalidSettingException.requireNotNegative("initial-backoff", initialBackoff);
		InvalidSettingException.requireNotNegative("jitter", jitter);
		InvalidSettingException.requireNotNegative("max-backoff", maxBackoff);
		if (initialBackoff.isZero() && jitter.isZero()) {
			throw new InvalidSettingException("initial-backoff", initialBackoff,
					"must not be zero while jitter is zero too: retries would hammer Model Armor without a pause");
		}
		if (maxBackoff.compareTo(initialBackoff) < 0) {
			throw new InvalidSettingException("max-backoff", maxBackoff,
					"must not be less than initial-backoff (" + initialBackoff.toMillis() + "ms)");
		}
	}

	/**
	 * The wait before a retry, in whole milliseconds.
	 * @param retry the retry's index: 0 for the first retry (the second attempt)
	 * @param random the source of the random fraction, asked once per call
	 * @return a wait in {@code [min(b·2^n, cap), min(b·2^n + jitter, cap)]}
	 */
	Duration delayBeforeRetry(int retry, RandomGenerator random) {
		if (retry < 0) {
			throw new IllegalArgumentException("retry must not be negative: " + retry);
		}
		long exponential = doubled(saturatedMillis(this.initialBackoff), retry);
		long jitterMillis = saturatedMillis(this.jitter);
		long randomFraction = (jitterMillis <= 0) ? 0
				: (jitterMillis == Long.MAX_VALUE) ? (random.nextLong() & Long.MAX_VALUE) : random.nextLong(jitterMillis + 1);
		long wait = Math.min(saturatedAdd(exponential, randomFraction), saturatedMillis(this.maxBackoff));
		return Duration.ofMillis(wait);
	}

	/** The duration in milliseconds, {@link Long#MAX_VALUE} for one too long to count them in a long. */
	static long saturatedMillis(Duration duration) {
		try {
			return duration.toMillis();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/** {@code base × 2^times}, saturating at {@link Long#MAX_VALUE} instead of overflowing. */
	static long doubled(long base, int times) {
		if (base == 0) {
			return 0;
		}
		return (times >= Long.numberOfLeadingZeros(base)) ? Long.MAX_VALUE : base << times;
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (sum < a) ? Long.MAX_VALUE : sum;
	}

}
