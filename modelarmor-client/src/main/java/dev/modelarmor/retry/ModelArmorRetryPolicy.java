package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.AttemptKind;
import dev.modelarmor.retry.internal.FailureClassifier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.context.RetryContextSupport;

/**
 * spring-retry {@link RetryPolicy} that retries exactly the failures the {@link FailureClassifier}
 * accepts, while the client's {@link RetryBudget} (when there is one) allows it: every call counts towards
 * its location's budget once (at its first failure, or when it ends without one), every retry asks it once. It sets no attempt limit: the deadline, enforced by
 * {@link JitteredTruncatedBackOffPolicy}, ends retrying.
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
	ModelArmorRetryPolicy(FailureClassifier classifier, @Nullable RetryBudget budget) {
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
		if (RetryRecords.isBudgetRefused(context)) {
			if (RetryRecords.failureOutcome(context) != CallOutcome.BUDGET_EXHAUSTED) {
				CallLog.debug(logger).call(RetryRecords.call(context)).outcome(CallOutcome.BUDGET_EXHAUSTED)
					.status(CallLog.statusOf(last)).attempts(context.getRetryCount())
					.log(() -> String.format("Model Armor call failed, not retrying: attempt=%d failure=\"%s\" outcome=%s: %s",
							context.getRetryCount(), FailureClassifier.describe(last), CallOutcome.BUDGET_EXHAUSTED.tag(),
							CallOutcome.BUDGET_EXHAUSTED.reason()));
				RetryRecords.stopped(context, CallOutcome.BUDGET_EXHAUSTED);
			}
			return false;
		}
		return true;
	}

	@Override
	public RetryContext open(@Nullable RetryContext parent) {
		return new RetryRecords.CallContext(parent);
	}

	/**
	 * A call that met no failure counts towards its location's budget when it ends; a call that ends with an
	 * answer counts its last attempt as a success towards the location's failure rate.
	 */
	@Override
	public void close(RetryContext context) {
		counted(context);
		if (this.budget != null && RetryRecords.isAnswered(context)) {
			this.budget.onSuccess(RetryRecords.location(context));
		}
	}

	/** Counts the call once, in the budget of the location its attempts go to (known from its first attempt). */
	private void counted(RetryContext context) {
		if (this.budget != null && RetryRecords.countedOnce(context)) {
			this.budget.onCall(RetryRecords.location(context));
		}
	}

	/**
	 * An attempt failed: when it may be retried, the budget is asked for the retry now, once, so that asking
	 * again before the next attempt (spring-retry asks twice) takes nothing more.
	 */
	@Override
	public void registerThrowable(RetryContext context, Throwable throwable) {
		((RetryContextSupport) context).registerThrowable(throwable);
		counted(context);
		if (this.budget != null && this.classifier.isRetryable(throwable)) {
			boolean tooManyRequests = FailureClassifier.kindOf(throwable) == AttemptKind.TOO_MANY_REQUESTS;
			RetryRecords.budgetRefused(context, !this.budget.tryRetry(RetryRecords.location(context), tooManyRequests));
		}
	}

}
