package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.retry.CallLog;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.HttpFailure;
import dev.modelarmor.retry.ModelArmorAsyncRetries;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryDelayer;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.jspecify.annotations.Nullable;

/**
 * One client instance in virtual time, driven through the starter's own retry code: the non-blocking path's
 * {@link ModelArmorAsyncRetries} (Google's schedule, the deadline, the retry policy and the {@link RetryBudget},
 * one per location) and the {@link ResilienceGate} with its per-location {@link ModelArmorCircuitBreaker}.
 * Calls start at a steady rate, alternating between the given locations; each attempt's status comes from a
 * server function of the location and the time; every wait is an event in one queue, so the attempts of all
 * calls interleave as they would in real time, and a run of a minute at 1,000 calls/s takes a second.
 */
final class FleetSimulation {

	private final VirtualTime time = new VirtualTime();

	private final PriorityQueue<Event> events = new PriorityQueue<>();

	private long sequence;

	private final @Nullable ModelArmorCircuitBreaker breaker;

	private final @Nullable RetryBudget budget;

	private final ResilienceGate gate;

	private final ModelArmorAsyncRetries retries;

	private final long startMillis = this.time.millis();

	FleetSimulation(long seed, @Nullable RetryBudgetSettings budget, @Nullable CircuitBreakerSettings breaker) {
		RetryDelayer delayer = (wait) -> {
			CompletableFuture<Void> done = new CompletableFuture<>();
			at(this.time.millis() + wait.toMillis(), () -> done.complete(null));
			return done;
		};
		RetryRuntime runtime = new RetryRuntime(this.time, (millis) -> {
			throw new IllegalStateException("the simulation never sleeps");
		}, new SplittableRandom(seed), delayer);
		this.budget = (budget != null) ? new RetryBudget(budget, this.time) : null;
		this.breaker = (breaker != null) ? new ModelArmorCircuitBreaker("sim", breaker, this.time) : null;
		this.gate = new ResilienceGate(this.breaker, null, ResilienceObserver.NONE);
		this.retries = ModelArmorAsyncRetries.retrying(RetrySettings.DEFAULTS, runtime, this.budget);
	}

	/** The defaults of the starter: the budget's and the breaker's. */
	static FleetSimulation withDefaults(long seed) {
		return new FleetSimulation(seed, RetryBudgetSettings.DEFAULTS, CircuitBreakerSettings.DEFAULTS);
	}

	/**
	 * Offers calls at a steady rate and runs until every call has ended.
	 * @param callsPerSecond the rate
	 * @param seconds for how long calls start
	 * @param locations the locations, one call to each in turn
	 * @param server the status of an attempt to a location at a time in seconds from the start ({@code 200}
	 * or a failure's code)
	 * @return what each location saw
	 */
	Map<String, Run> run(double callsPerSecond, double seconds, List<String> locations, Server server) {
		Map<String, Run> runs = new HashMap<>();
		locations.forEach((location) -> runs.put(location, new Run()));
		int calls = (int) Math.round(callsPerSecond * seconds);
		for (int i = 0; i < calls; i++) {
			String location = locations.get(i % locations.size());
			long at = this.startMillis + Math.round(i * 1000 / callsPerSecond);
			at(at, () -> call(location, runs.get(location), server));
		}
		while (!this.events.isEmpty()) {
			Event event = this.events.poll();
			long now = this.time.millis();
			if (event.at > now) {
				this.time.advance(Duration.ofMillis(event.at - now));
			}
			event.action.run();
			observe(runs);
		}
		return runs;
	}

	private void call(String location, Run run, Server server) {
		run.calls++;
		long started = this.time.millis();
		AttemptGate.CallAdmissions admissions = this.gate.call("sanitize_user_prompt", "t", location);
		Function<ModelArmorRetryTemplates.Attempt, CompletableFuture<String>> attempt = (number) -> {
			AttemptGate.Admission admission = admissions.admit(null);
			CallOutcome refusal = admission.refusal();
			if (refusal != null) {
				return CompletableFuture.failedFuture(new Refused(refusal));
			}
			run.requests++;
			int status = server.status(location, seconds());
			admission.ended(Integer.toString(status));
			return (status == 200) ? CompletableFuture.completedFuture("ok")
					: CompletableFuture.failedFuture(new Failed(status));
		};
		this.retries.execute(CallLog.Call.start("sanitize_user_prompt", "t"), location, attempt)
			.whenComplete((retried, failure) -> {
				admissions.ended();
				long took = this.time.millis() - started;
				run.slowestMillis = Math.max(run.slowestMillis, took);
				if (failure != null || retried.failure() != null) {
					run.failed++;
					CallOutcome outcome = (retried != null) ? retried.outcome() : CallOutcome.NOT_SCREENED;
					if (retried != null && retried.failure() instanceof Refused refused) {
						outcome = refused.outcome;
					}
					run.outcomes.merge(outcome, 1, Integer::sum);
					if (run.firstFailureAt < 0) {
						run.firstFailureAt = (started - this.startMillis) / 1000.0;
					}
					run.lastFailedStartAt = (started - this.startMillis) / 1000.0;
				}
			});
	}

	private void observe(Map<String, Run> runs) {
		if (this.breaker == null) {
			return;
		}
		double now = seconds();
		runs.forEach((location, run) -> {
			String state = this.breaker.state(location);
			if (!state.equals("closed") && run.firstOpenAt < 0) {
				run.firstOpenAt = now;
			}
			if (run.firstOpenAt >= 0 && state.equals("closed") && run.closedAgainAt < 0) {
				run.closedAgainAt = now;
			}
		});
	}

	private double seconds() {
		return (this.time.millis() - this.startMillis) / 1000.0;
	}

	private void at(long at, Runnable action) {
		this.events.add(new Event(at, this.sequence++, action));
	}

	@Nullable RetryBudget budget() {
		return this.budget;
	}

	/** The status of an attempt to a location at a time. */
	@FunctionalInterface
	interface Server {

		int status(String location, double seconds);

	}

	/** What one location saw. */
	static final class Run {

		int calls;

		int requests;

		int failed;

		final Map<CallOutcome, Integer> outcomes = new HashMap<>();

		long slowestMillis;

		double firstFailureAt = -1;

		double lastFailedStartAt = -1;

		double firstOpenAt = -1;

		double closedAgainAt = -1;

		double requestsPerCall() {
			return (double) this.requests / this.calls;
		}

		int failedWith(CallOutcome outcome) {
			return this.outcomes.getOrDefault(outcome, 0);
		}

		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT,
					"calls=%d requests=%d (%.3f per call) failed=%d %s slowest=%.1fs open=%.1fs closed=%.1fs", this.calls,
					this.requests, requestsPerCall(), this.failed, this.outcomes, this.slowestMillis / 1000.0,
					this.firstOpenAt, this.closedAgainAt);
		}

	}

	private record Event(long at, long sequence, Runnable action) implements Comparable<Event> {

		@Override
		public int compareTo(Event other) {
			int byTime = Long.compare(this.at, other.at);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

	/** An attempt answered with a failure status. */
	private static final class Failed extends RuntimeException implements HttpFailure {

		private final int status;

		Failed(int status) {
			super("HTTP " + status, null, false, false);
			this.status = status;
		}

		@Override
		public int statusCode() {
			return this.status;
		}

		@Override
		public Optional<Duration> retryAfter() {
			return Optional.empty();
		}

	}

	/** An attempt the gate refused: not retried. */
	private static final class Refused extends RuntimeException {

		private final CallOutcome outcome;

		Refused(CallOutcome outcome) {
			super(outcome.tag(), null, false, false);
			this.outcome = outcome;
		}

	}

}
