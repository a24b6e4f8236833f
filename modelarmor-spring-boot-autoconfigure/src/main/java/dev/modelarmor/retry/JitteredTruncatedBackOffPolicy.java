package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * spring-retry {@link BackOffPolicy} for Google's retry strategy: sleeps the waits that each call's
 * {@link RetryTimeline} decides. When the next wait would end after the deadline it is not slept: the
 * call is marked exhausted, so {@code RetryTemplate} throws the last attempt's exception at once.
 *
 * <p>Each retry logs one WARN line with the attempt, the failure's status and the wait; never content.
 */
public final class JitteredTruncatedBackOffPolicy implements BackOffPolicy {

	private static final Log logger = LogFactory.getLog(JitteredTruncatedBackOffPolicy.class);

	/** The waits and the deadline, shared with the strategy offered to Spring Framework's own retry. */
	private final TruncatedExponentialBackOff strategy;

	/**
	 * Creates a policy.
	 * @param settings the schedule, deadline and hint handling
	 * @param runtime the clock, sleeper and random source
	 */
	public JitteredTruncatedBackOffPolicy(RetrySettings settings, RetryRuntime runtime) {
		this.strategy = new TruncatedExponentialBackOff(settings, runtime);
	}

	@Override
	public BackOffContext start(RetryContext context) {
		RetryTimeline timeline = this.strategy.startTimeline();
		RetryRecords.started(context, timeline.deadline());
		return new CallState(context, timeline);
	}

	@Override
	public void backOff(BackOffContext backOffContext) throws BackOffInterruptedException {
		Duration wait = nextWait(backOffContext);
		if (wait != null) {
			sleep(wait);
			RetryRecords.waited(((CallState) backOffContext).context, wait);
		}
	}

	/**
	 * Decides the wait before the next retry, logging it, without waiting: the non-blocking path schedules it
	 * and then records it ({@link RetryRecords#waited}).
	 * @return the wait, or {@code null} when the call stops retrying (then marked exhausted)
	 */
	@Nullable Duration nextWait(BackOffContext backOffContext) {
		CallState call = (CallState) backOffContext;
		Throwable failure = call.context.getLastThrowable();
		RetryTimeline.RetryDecision decision = call.timeline.next(serverHint(failure));
		CallOutcome stop = decision.stop();
		if (stop != null) {
			logger.warn(String.format("Model Armor call failed, not retrying: attempt=%d failure=\"%s\" outcome=%s "
					+ "wait=%s remaining=%s", call.context.getRetryCount(), FailureClassifier.describe(failure),
					stop.tag(), decision.delay(), call.timeline.deadline().remaining()));
			RetryRecords.stopped(call.context, stop);
			call.context.setExhaustedOnly();
			return null;
		}
		if (logger.isWarnEnabled()) {
			logger.warn(String.format("Model Armor call failed, retrying: attempt=%d failure=\"%s\" wait=%s",
					call.context.getRetryCount(), FailureClassifier.describe(failure), decision.delay()));
		}
		return decision.delay();
	}

	/** The runtime whose delayer the non-blocking path waits with. */
	RetryRuntime runtime() {
		return this.strategy.runtime();
	}

	private Optional<Duration> serverHint(@Nullable Throwable failure) {
		if (this.strategy.settings().honorRetryAfter() && failure instanceof HttpFailure http) {
			return http.retryAfter();
		}
		return Optional.empty();
	}

	private void sleep(Duration wait) {
		try {
			this.strategy.runtime().sleeper().sleep(BackoffSchedule.saturatedMillis(wait));
		}
		catch (ShutdownAwareSleeper.RetriesStoppedException ex) {
			throw new BackOffInterruptedException(ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new BackOffInterruptedException("Interrupted while waiting to retry a Model Armor call", ex);
		}
	}

	private record CallState(RetryContext context, RetryTimeline timeline) implements BackOffContext {
	}

}
