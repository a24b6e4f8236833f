package dev.modelarmor.retry;

/**
 * The size of a {@link RetryBudget} and what a success gives back, as gRPC's {@code retryThrottling}
 * defines them.
 *
 * @param maxTokens the bucket's size, from 1 to 1000; retries stop at half of it
 * @param tokenRatio the tokens a success gives back, more than 0 and at most 1
 */
public record RetryBudgetSettings(int maxTokens, double tokenRatio) {

	/** 10 tokens, 0.1 back per success: retries stop after about 5 failures more than 10× the successes. */
	public static final RetryBudgetSettings DEFAULTS = new RetryBudgetSettings(10, 0.1);

	/**
	 * Rejects values gRPC rejects.
	 */
	public RetryBudgetSettings {
		if (maxTokens < 1 || maxTokens > 1000) {
			throw new InvalidSettingException("budget.max-tokens", maxTokens, "must be from 1 to 1000");
		}
		if (!(tokenRatio > 0 && tokenRatio <= 1)) {
			throw new InvalidSettingException("budget.token-ratio", tokenRatio, "must be more than 0 and at most 1");
		}
	}

}
