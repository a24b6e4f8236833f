package dev.modelarmor.retry;

import java.util.Optional;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

/**
 * Google's retry strategy for Model Armor as a Spring Framework {@link BackOff}, for applications that
 * retry their own Model Armor-related work with Spring Framework 7's {@code RetryTemplate} or
 * {@code @Retryable}: the same waits ({@code min(initial-backoff × 2^n + U[0, jitter], max-backoff)}, or
 * the settings' other {@link JitterMode}) and the same deadline as the starter's own calls. Each
 * {@link #start()} begins a new deadline; {@link BackOffExecution#STOP} is returned once the next wait
 * would end past it, so a retry never starts that could not finish in time.
 *
 * <p>For example, to retry a batch job's own work the way the starter retries its calls:
 * <pre class="code">
 * BackOff backOff = new TruncatedExponentialBackOff(RetrySettings.DEFAULTS, RetryRuntime.system());
 * RetryPolicy policy = RetryPolicy.builder().backOff(backOff).build();
 * Result stored = new RetryTemplate(policy).invoke(() -&gt; screenAndStore(document));
 * </pre>
 * The back-off does not sleep (Spring's retry does), and it sees no server hints: {@code Retry-After}
 * is honoured by the starter's own calls only.
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
		RetryTimeline timeline = startTimeline();
		return () -> {
			RetryTimeline.RetryDecision decision = timeline.next(Optional.empty());
			return decision.retry() ? BackoffSchedule.saturatedMillis(decision.delay()) : BackOffExecution.STOP;
		};
	}

	/** Starts one call's timeline now: its deadline runs from here. */
	RetryTimeline startTimeline() {
		return new RetryTimeline(this.settings, this.runtime);
	}

	RetrySettings settings() {
		return this.settings;
	}

	RetryRuntime runtime() {
		return this.runtime;
	}

}
