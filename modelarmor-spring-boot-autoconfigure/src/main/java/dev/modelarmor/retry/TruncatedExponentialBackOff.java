package dev.modelarmor.retry;

import java.util.Optional;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

/**
 * The same schedule and deadline as a Spring Framework {@link BackOff}, for applications that retry
 * their own Model Armor-related work with {@code RetryTemplate} or {@code @Retryable} of Spring
 * Framework 7. Each {@link #start()} begins a new deadline; {@link BackOffExecution#STOP} is returned
 * once the next wait would end past it.
 */
public final class TruncatedExponentialBackOff implements BackOff {

	private final RetrySettings settings;

	private final RetryRuntime runtime;

	/**
	 * Creates a back-off.
	 * @param settings the schedule and deadline
	 * @param runtime the clock and random source (the sleeper is not used: the caller sleeps)
	 */
	public TruncatedExponentialBackOff(RetrySettings settings, RetryRuntime runtime) {
		this.settings = settings;
		this.runtime = runtime;
	}

	@Override
	public BackOffExecution start() {
		RetryTimeline timeline = new RetryTimeline(this.settings, this.runtime);
		return () -> {
			RetryTimeline.RetryDecision decision = timeline.next(Optional.empty());
			return decision.retry() ? BackoffSchedule.saturatedMillis(decision.delay()) : BackOffExecution.STOP;
		};
	}

}
