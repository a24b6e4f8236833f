package dev.modelarmor.retry;

import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.context.RetryContextSupport;

/**
 * spring-retry {@link RetryPolicy} that retries exactly the failures the {@link FailureClassifier}
 * accepts. It sets no attempt limit: the deadline, enforced by {@link JitteredTruncatedBackOffPolicy},
 * ends retrying.
 */
public final class ModelArmorRetryPolicy implements RetryPolicy {

	private final FailureClassifier classifier;

	/**
	 * Creates a policy.
	 * @param classifier decides which failures are retried
	 */
	public ModelArmorRetryPolicy(FailureClassifier classifier) {
		this.classifier = classifier;
	}

	@Override
	public boolean canRetry(RetryContext context) {
		Throwable last = context.getLastThrowable();
		return last == null || this.classifier.isRetryable(last);
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
	}

}
