package dev.modelarmor.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A retry budget in the manner of gRPC's retry throttling: a bucket of {@code maxTokens} tokens that
 * starts full; every retryable failure takes one token, every success gives back {@code tokenRatio};
 * retries are allowed only while more than half of the bucket is left. During a long outage the bucket
 * drains and clients stop piling retries on Model Armor, then refill as calls succeed again.
 *
 * <p>It also refills with time: once {@link #QUIET_PERIOD} has passed without a retryable failure, the
 * bucket is full again, so that after a storm in which no call succeeded the next lone failure is retried
 * (gRPC's refills only on successes, and a client that has stopped retrying may see few). While failures
 * go on, nothing comes back with time, and a storm still drains it.
 *
 * <p>Thread-safe; one budget is shared by all calls of one client. Applications get one through
 * {@link RetrySettings#budget()}; the type is public because the retry-storm simulation of the benchmarks
 * drives one budget per simulated client, the way {@link ModelArmorRetryPolicy} drives the client's, and
 * because the starter's metrics read {@link #tokens()}.
 */
public final class RetryBudget {

	/** After this long without a retryable failure the bucket is full again. */
	public static final Duration QUIET_PERIOD = Duration.ofMinutes(1);

	private final double maxTokens;

	private final double tokenRatio;

	private final Clock clock;

	private double tokens;

	private Instant lastFailure;

	/**
	 * Creates a full budget that refills with the system clock.
	 * @param settings the size of the bucket and what a success gives back
	 */
	public RetryBudget(RetryBudgetSettings settings) {
		this(settings, Clock.systemUTC());
	}

	/**
	 * Creates a full budget.
	 * @param settings the size of the bucket and what a success gives back
	 * @param clock tells how much time has passed, for the refill with time
	 */
	public RetryBudget(RetryBudgetSettings settings, Clock clock) {
		this.maxTokens = settings.maxTokens();
		this.tokenRatio = settings.tokenRatio();
		this.clock = clock;
		this.tokens = this.maxTokens;
		this.lastFailure = clock.instant();
	}

	/**
	 * A retryable failure takes a token.
	 */
	public synchronized void onRetryableFailure() {
		refill();
		this.tokens = Math.max(0, this.tokens - 1);
		this.lastFailure = this.clock.instant();
	}

	/**
	 * A success gives back a fraction of a token.
	 */
	public synchronized void onSuccess() {
		refill();
		this.tokens = Math.min(this.maxTokens, this.tokens + this.tokenRatio);
	}

	/**
	 * Whether a retry may start now.
	 * @return {@code true} while more than half of the bucket is left
	 */
	public synchronized boolean allowsRetry() {
		refill();
		return this.tokens > this.maxTokens / 2;
	}

	/**
	 * The tokens left, for metrics and tests.
	 * @return the tokens
	 */
	public synchronized double tokens() {
		refill();
		return this.tokens;
	}

	/**
	 * Full again, as after a quiet period: for a test kit that runs tests one after another on one client,
	 * so that one test's outage does not stop the next test's retries.
	 */
	public synchronized void reset() {
		this.tokens = this.maxTokens;
		this.lastFailure = this.clock.instant();
	}

	private void refill() {
		if (Duration.between(this.lastFailure, this.clock.instant()).compareTo(QUIET_PERIOD) >= 0) {
			this.tokens = this.maxTokens;
		}
	}

}
