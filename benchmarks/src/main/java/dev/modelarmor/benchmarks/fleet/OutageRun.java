package dev.modelarmor.benchmarks.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Model Armor down (503 to every request): 20 calls a second on each instance until every breaker is open,
 * then guarded calls, one at a time, are timed as they fail closed with no request sent.
 */
final class OutageRun {

	private static final int CALLS_WHILE_OPEN = 1000;

	/** A breaker that has not opened after so long will not: the run ends there. */
	private static final int MOST_SECONDS_TO_OPEN = 60;

	private static boolean allOpen(Fleet fleet) {
		for (int i = 0; i < fleet.size(); i++) {
			if (!"open".equals(fleet.breakerState(i))) {
				return false;
			}
		}
		return true;
	}

	private OutageRun() {
	}

	/**
	 * Opens every instance's breaker, then makes {@link #CALLS_WHILE_OPEN} calls across the instances.
	 * @param fleet the instances, whose Model Armor answers 503
	 * @param proxy the proxy in its outage, to count what still reaches it
	 * @return the table
	 */
	static Result run(Fleet fleet, QuotaProxy proxy) throws Exception {
		long opening = System.nanoTime();
		// the breaker counts calls and opens on broad failure: 20 calls a second on every instance, each on a
		// thread of its own, until every breaker is open
		ExecutorService callers = Executors.newCachedThreadPool();
		int calls = 0;
		long until = opening + TimeUnit.SECONDS.toNanos(MOST_SECONDS_TO_OPEN);
		while (!allOpen(fleet) && System.nanoTime() < until) {
			for (int i = 0; i < fleet.size(); i++) {
				Questions instance = fleet.questions(i);
				calls++;
				callers.execute(() -> call(instance));
			}
			Thread.sleep(50);
		}
		callers.shutdownNow();
		long toOpen = System.nanoTime() - opening;
		proxy.startCounting();
		List<Long> times = new ArrayList<>();
		int circuitOpen = 0;
		for (int i = 0; i < CALLS_WHILE_OPEN; i++) {
			long began = System.nanoTime();
			CallOutcome outcome = call(fleet.questions(i % fleet.size()));
			times.add(System.nanoTime() - began);
			if (outcome == CallOutcome.CIRCUIT_OPEN) {
				circuitOpen++;
			}
		}
		return new Result(calls, toOpen, circuitOpen, proxy.requests(), new Latencies(times));
	}

	/** The outcome of the innermost Model Armor failure of a guarded call that failed, or null. */
	private static @Nullable CallOutcome call(Questions instance) {
		try {
			instance.ask("When does the train to Lyon leave?");
			return null;
		}
		catch (ModelArmorException ex) {
			CallOutcome outcome = ex.outcome().orElse(null);
			for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
				if (cause instanceof ModelArmorException inner && inner.outcome().isPresent()) {
					outcome = inner.outcome().get();
				}
			}
			return outcome;
		}
	}

	/**
	 * The outage's figures.
	 * @param callsToOpen the calls offered to the instances, together, until every breaker was open
	 * @param nanosToOpen how long that took
	 * @param circuitOpen the calls that failed {@code circuit_open} once open
	 * @param requestsWhileOpen the requests Model Armor got meanwhile
	 * @param failFast the time of each call once open
	 */
	record Result(int callsToOpen, long nanosToOpen, int circuitOpen, long requestsWhileOpen, Latencies failFast) {

		String markdown() {
			return String.format(Locale.ROOT, "| outage (503 everywhere) | value |%n|---|---|%n"
					+ "| time until every breaker was open (20 calls/s on each instance, %d calls in all) | %s |%n"
					+ "| calls failed circuit_open of %d afterwards | %d |%n"
					+ "| requests Model Armor got while open | %d |%n"
					+ "| time to fail closed once open, p50 / p99 / max | %s / %s / %s |", this.callsToOpen,
					Latencies.millis(this.nanosToOpen), this.failFast.count(), this.circuitOpen,
					this.requestsWhileOpen, Latencies.fineMillis(this.failFast.percentile(50)),
					Latencies.fineMillis(this.failFast.percentile(99)), Latencies.fineMillis(this.failFast.max()));
		}

	}

}
