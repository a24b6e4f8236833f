package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.FailureClassifier;

import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.context.RetryContextSupport;

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
		return new RetryPolicies(new SingleAttempt(), new JitteredTruncatedBackOffPolicy(settings, runtime));
	}

	/** A budget of its own when the settings ask for one. */
	static @Nullable RetryBudget budgetOf(RetrySettings settings, RetryRuntime runtime) {
		RetryBudgetSettings budgetSettings = settings.budget();
		return (budgetSettings != null) ? new RetryBudget(budgetSettings, runtime.clock()) : null;
	}

	/**
	 * One attempt, as spring-retry's {@code NeverRetryPolicy} allows, in a context that carries the call's
	 * {@link RetryRecords}.
	 */
	private static final class SingleAttempt implements RetryPolicy {

		@Override
		public boolean canRetry(RetryContext context) {
			return context.getLastThrowable() == null;
		}

		@Override
		public RetryContext open(@Nullable RetryContext parent) {
			return new RetryRecords.CallContext(parent);
		}

		@Override
		public void close(RetryContext context) {
		}

		@Override
		public void registerThrowable(RetryContext context, Throwable throwable) {
			((RetryContextSupport) context).registerThrowable(throwable);
		}

	}

}
