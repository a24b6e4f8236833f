package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.FailureClassifier;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * spring-retry {@link BackOffPolicy} for Google's retry strategy: sleeps the waits that each call's
 * {@link RetryTimeline} decides. When the next wait would end after the deadline it is not slept: the
 * call is marked exhausted, so {@code RetryTemplate} throws the last attempt's exception at once.
 *
 * <p>Each retry logs one DEBUG line with the attempt, the failure's status and the wait, and so does the
 * call's end (not retrying, or the wait cut short, with why in words): the call's one WARN line is written
 * where the failure is decided on (the screening's fail-closed or fail-open line), with the same
 * {@code call_id}, outcome and reason. Never content.
 */
public final class JitteredTruncatedBackOffPolicy implements BackOffPolicy {

	private static final Logger logger = LoggerFactory.getLogger(JitteredTruncatedBackOffPolicy.class);

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
			CallState call = (CallState) backOffContext;
			sleep(call, wait);
			RetryRecords.waited(call.context, wait);
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
			CallLog.debug(logger).call(RetryRecords.call(call.context)).outcome(stop).status(CallLog.statusOf(failure))
				.attempts(call.context.getRetryCount())
				.log(() -> String.format("Model Armor call failed, not retrying: attempt=%d failure=\"%s\" outcome=%s "
						+ "wait=%s remaining=%s: %s", call.context.getRetryCount(), FailureClassifier.describe(failure),
						stop.tag(), decision.delay(), call.timeline.deadline().remaining(), stop.reason()));
			RetryRecords.stopped(call.context, stop);
			call.context.setExhaustedOnly();
			return null;
		}
		CallLog.debug(logger).call(RetryRecords.call(call.context)).status(CallLog.statusOf(failure))
			.attempts(call.context.getRetryCount()).field("wait_ms", decision.delay().toMillis())
			.log(() -> String.format("Model Armor call failed, retrying: attempt=%d failure=\"%s\" wait=%s",
					call.context.getRetryCount(), FailureClassifier.describe(failure), decision.delay()));
		return decision.delay();
	}

	/** The call's deadline, as the settings give it. */
	Duration deadline() {
		return this.strategy.settings().deadline();
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

	private void sleep(CallState call, Duration wait) {
		try {
			this.strategy.runtime().sleeper().sleep(BackoffSchedule.saturatedMillis(wait));
		}
		catch (ShutdownAwareSleeper.RetriesStoppedException ex) {
			interrupted(call, wait, "the application is shutting down");
			throw new BackOffInterruptedException(ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			interrupted(call, wait, "the thread was interrupted");
			throw new BackOffInterruptedException("Interrupted while waiting to retry a Model Armor call", ex);
		}
	}

	/**
	 * The non-blocking path's wait was cut short: the call's one WARN line, as when a sleep is.
	 * @param backOffContext the call's back-off context
	 * @param wait the wait that was cut
	 * @param why what cut it
	 */
	void interrupted(BackOffContext backOffContext, Duration wait, String why) {
		interrupted((CallState) backOffContext, wait, why);
	}

	/** The call's one WARN line when its wait is cut short: it ends {@code interrupted}. */
	private static void interrupted(CallState call, Duration wait, String why) {
		Throwable failure = call.context.getLastThrowable();
		RetryRecords.stopped(call.context, CallOutcome.INTERRUPTED);
		CallLog.debug(logger).call(RetryRecords.call(call.context)).outcome(CallOutcome.INTERRUPTED)
			.status(CallLog.statusOf(failure)).attempts(call.context.getRetryCount())
			.log(() -> String.format("Model Armor call abandoned while waiting to retry, %s: attempt=%d failure=\"%s\" "
					+ "outcome=%s wait=%s remaining=%s", why, call.context.getRetryCount(), FailureClassifier.describe(failure),
					CallOutcome.INTERRUPTED.tag(), wait, call.timeline.deadline().remaining()));
	}

	private record CallState(RetryContext context, RetryTimeline timeline) implements BackOffContext {
	}

}
