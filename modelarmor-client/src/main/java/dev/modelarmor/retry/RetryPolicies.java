package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.FailureClassifier;

import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryPolicy;
import org.springframework.retry.policy.NeverRetryPolicy;

/**
 * The policies of one client's retries, made in one place for both paths: the blocking path's
 * {@code RetryTemplate} ({@link ModelArmorRetryTemplates}) and the non-blocking one
 * ({@link ModelArmorAsyncRetries}) retry the same failures, wait the same waits and draw on the same budget.
 *
 * @param retry which failures are retried, while the budget allows
 * @param backOff the waits and the deadline
 */
record RetryPolicies(RetryPolicy retry, JitteredTruncatedBackOffPolicy backOff) {

	static RetryPolicies retrying(RetrySettings settings, RetryRuntime runtime, @Nullable RetryBudget budget) {
		return new RetryPolicies(new ModelArmorRetryPolicy(new FailureClassifier(settings.retryTooManyRequests()), budget),
				new JitteredTruncatedBackOffPolicy(settings, runtime));
	}

	static RetryPolicies singleAttempt(RetrySettings settings, RetryRuntime runtime) {
		return new RetryPolicies(new NeverRetryPolicy(), new JitteredTruncatedBackOffPolicy(settings, runtime));
	}

	/** A budget of its own when the settings ask for one. */
	static @Nullable RetryBudget budgetOf(RetrySettings settings, RetryRuntime runtime) {
		RetryBudgetSettings budgetSettings = settings.budget();
		return (budgetSettings != null) ? new RetryBudget(budgetSettings, runtime.clock()) : null;
	}

}
