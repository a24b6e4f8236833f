package dev.modelarmor.benchmarks.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Model Armor down (503 to every request): one caller per instance calls until that instance's breaker
 * opens, then guarded calls, one at a time, are timed as they fail closed with no request sent.
 */
final class OutageRun {

	private static final int CALLS_WHILE_OPEN = 1000;

	/** A breaker that has not opened after so many calls of one caller will not: the run ends there. */
	private static final int MOST_CALLS_TO_OPEN = 200;

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
		ExecutorService openers = Executors.newFixedThreadPool(fleet.size());
		List<Future<Integer>> callsToOpen = new ArrayList<>();
		for (int i = 0; i < fleet.size(); i++) {
			int instance = i;
			callsToOpen.add(openers.submit(() -> {
				int calls = 0;
				while (!"open".equals(fleet.breakerState(instance)) && calls < MOST_CALLS_TO_OPEN) {
					calls++;
					call(fleet.questions(instance));
				}
				return calls;
			}));
		}
		int calls = 0;
		for (Future<Integer> future : callsToOpen) {
			calls += future.get();
		}
		openers.shutdown();
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
	 * @param callsToOpen the calls the instances made, together, until every breaker was open
	 * @param nanosToOpen how long that took
	 * @param circuitOpen the calls that failed {@code circuit_open} once open
	 * @param requestsWhileOpen the requests Model Armor got meanwhile
	 * @param failFast the time of each call once open
	 */
	record Result(int callsToOpen, long nanosToOpen, int circuitOpen, long requestsWhileOpen, Latencies failFast) {

		String markdown() {
			return String.format(Locale.ROOT, "| outage (503 everywhere) | value |%n|---|---|%n"
					+ "| time until every breaker was open (one caller per instance, %d calls in all) | %s |%n"
					+ "| calls failed circuit_open of %d afterwards | %d |%n"
					+ "| requests Model Armor got while open | %d |%n"
					+ "| time to fail closed once open, p50 / p99 / max | %s / %s / %s |", this.callsToOpen,
					Latencies.millis(this.nanosToOpen), this.failFast.count(), this.circuitOpen,
					this.requestsWhileOpen, Latencies.fineMillis(this.failFast.percentile(50)),
					Latencies.fineMillis(this.failFast.percentile(99)), Latencies.fineMillis(this.failFast.max()));
		}

	}

}
