package dev.modelarmor.retry;

/**
 * A retry budget in the manner of gRPC's retry throttling: a bucket of {@code maxTokens} tokens that
 * starts full; every retryable failure takes one token, every success gives back {@code tokenRatio};
 * retries are allowed only while more than half of the bucket is left. During a long outage the bucket
 * drains and clients stop piling retries on Model Armor, then refill as calls succeed again.
 *
 * <p>Thread-safe; one budget is shared by all calls of one client. Applications get one through
 * {@link RetrySettings#budget()}; the type is public because the retry-storm simulation of the benchmarks
 * drives one budget per simulated client, the way {@link ModelArmorRetryPolicy} drives the client's.
 */
public final class RetryBudget {

	private final double maxTokens;

	private final double tokenRatio;

	private double tokens;

	/**
	 * Creates a full budget.
	 * @param settings the size of the bucket and what a success gives back
	 */
	public RetryBudget(RetryBudgetSettings settings) {
		this.maxTokens = settings.maxTokens();
		this.tokenRatio = settings.tokenRatio();
		this.tokens = this.maxTokens;
	}

	/**
	 * A retryable failure takes a token.
	 */
	public synchronized void onRetryableFailure() {
		this.tokens = Math.max(0, this.tokens - 1);
	}

	/**
	 * A success gives back a fraction of a token.
	 */
	public synchronized void onSuccess() {
		this.tokens = Math.min(this.maxTokens, this.tokens + this.tokenRatio);
	}

	/**
	 * Whether a retry may start now.
	 * @return {@code true} while more than half of the bucket is left
	 */
	public synchronized boolean allowsRetry() {
		return this.tokens > this.maxTokens / 2;
	}

	/**
	 * The tokens left, for metrics and tests.
	 * @return the tokens
	 */
	public synchronized double tokens() {
		return this.tokens;
	}

}
