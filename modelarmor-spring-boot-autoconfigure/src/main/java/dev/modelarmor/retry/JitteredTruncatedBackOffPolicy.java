package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * spring-retry {@link BackOffPolicy} for Google's retry strategy: waits as the {@link BackoffSchedule}
 * says, raised to a server's retry hint when there is one, and never past the deadline. When the next
 * wait would end after the deadline it is not slept: the call is marked exhausted, so
 * {@code RetryTemplate} throws the last attempt's exception at once.
 *
 * <p>Each retry logs one WARN line with the attempt, the failure's status and the wait; never content.
 */
public final class JitteredTruncatedBackOffPolicy implements BackOffPolicy {

	private static final Log logger = LogFactory.getLog(JitteredTruncatedBackOffPolicy.class);

	private final RetrySettings settings;

	private final RetryRuntime runtime;

	/**
	 * Creates a policy.
	 * @param settings the schedule, deadline and hint handling
	 * @param runtime the clock, sleeper and random source
	 */
	public JitteredTruncatedBackOffPolicy(RetrySettings settings, RetryRuntime runtime) {
		this.settings = settings;
		this.runtime = runtime;
	}

	@Override
	public BackOffContext start(RetryContext context) {
		RetryDeadline deadline = RetryDeadline.startingNow(this.runtime.clock(), this.settings.deadline());
		CurrentRetryDeadline.attach(context, deadline);
		return new CallState(context, deadline);
	}

	@Override
	public void backOff(BackOffContext backOffContext) throws BackOffInterruptedException {
		CallState call = (CallState) backOffContext;
		Throwable failure = call.context.getLastThrowable();
		Duration wait = this.settings.schedule().delayBeforeRetry(call.retries++, this.runtime.random());
		Optional<Duration> hint = serverHint(failure);
		boolean hintRaisedWait = hint.isPresent() && hint.get().compareTo(wait) > 0;
		if (hintRaisedWait) {
			wait = hint.get();
		}
		if (!call.deadline.fits(wait)) {
			String reason = hintRaisedWait ? "retry_after_exceeds_deadline" : "deadline_exceeded";
			logger.warn(String.format("Model Armor call failed, not retrying: attempt=%d failure=\"%s\" reason=%s "
					+ "wait=%s remaining=%s", call.context.getRetryCount(), FailureClassifier.describe(failure), reason,
					wait, call.deadline.remaining()));
			call.context.setExhaustedOnly();
			return;
		}
		if (logger.isWarnEnabled()) {
			logger.warn(String.format("Model Armor call failed, retrying: attempt=%d failure=\"%s\" wait=%s",
					call.context.getRetryCount(), FailureClassifier.describe(failure), wait));
		}
		sleep(wait);
	}

	private Optional<Duration> serverHint(Throwable failure) {
		if (this.settings.honorRetryAfter() && failure instanceof HttpFailure http) {
			return http.retryAfter();
		}
		return Optional.empty();
	}

	private void sleep(Duration wait) {
		try {
			this.runtime.sleeper().sleep(wait.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new BackOffInterruptedException("Interrupted while waiting to retry a Model Armor call", ex);
		}
	}

	private static final class CallState implements BackOffContext {

		private final RetryContext context;

		private final RetryDeadline deadline;

		private int retries;

		CallState(RetryContext context, RetryDeadline deadline) {
			this.context = context;
			this.deadline = deadline;
		}

	}

}
