package dev.modelarmor.retry;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.context.RetryContextSupport;

/**
 * spring-retry {@link RetryPolicy} that retries exactly the failures the {@link FailureClassifier}
 * accepts, while the client's {@link RetryBudget} (when there is one) allows it. It sets no attempt
 * limit: the deadline, enforced by {@link JitteredTruncatedBackOffPolicy}, ends retrying.
 */
public final class ModelArmorRetryPolicy implements RetryPolicy {

	private static final Logger logger = LoggerFactory.getLogger(ModelArmorRetryPolicy.class);

	private final FailureClassifier classifier;

	private final @Nullable RetryBudget budget;

	/**
	 * Creates a policy.
	 * @param classifier decides which failures are retried
	 * @param budget the client's retry budget, or {@code null} for none
	 */
	public ModelArmorRetryPolicy(FailureClassifier classifier, @Nullable RetryBudget budget) {
		this.classifier = classifier;
		this.budget = budget;
	}

	@Override
	public boolean canRetry(RetryContext context) {
		Throwable last = context.getLastThrowable();
		if (last == null) {
			return true;
		}
		if (!this.classifier.isRetryable(last)) {
			return false;
		}
		if (this.budget != null && !this.budget.allowsRetry()) {
			if (RetryRecords.failureOutcome(context) != CallOutcome.BUDGET_EXHAUSTED) {
				RetryBudget spent = this.budget;
				CallLog.warn(logger).call(RetryRecords.call(context)).outcome(CallOutcome.BUDGET_EXHAUSTED)
					.status(CallLog.statusOf(last)).attempts(context.getRetryCount())
					.log(() -> String.format("Model Armor call failed, not retrying: attempt=%d failure=\"%s\" outcome=%s "
							+ "tokens=%.1f", context.getRetryCount(), FailureClassifier.describe(last),
							CallOutcome.BUDGET_EXHAUSTED.tag(), spent.tokens()));
				RetryRecords.stopped(context, CallOutcome.BUDGET_EXHAUSTED);
			}
			return false;
		}
		return true;
	}

	@Override
	public RetryContext open(@Nullable RetryContext parent) {
		return new RetryContextSupport(parent);
	}

	@Override
	public void close(RetryContext context) {
	}

	@Override
	public void registerThrowable(RetryContext context, Throwable throwable) {
		((RetryContextSupport) context).registerThrowable(throwable);
		if (this.budget != null && this.classifier.isRetryable(throwable)) {
			this.budget.onRetryableFailure();
		}
	}

}
