package dev.modelarmor.benchmarks.storm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import dev.modelarmor.retry.JitterMode;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.TruncatedExponentialBackOff;

import org.springframework.util.backoff.BackOffExecution;

/**
 * A retry storm in virtual time: {@code clients} clients each make one call while Model Armor is down;
 * every attempt fails (503) until the outage ends, after which the server answers at most
 * {@code capacityPerSecond} attempts per second (in 100 ms slots) and answers the rest 503 as overloaded.
 * Each client retries with the starter's own waits, deadline and stop rules, through the
 * {@link TruncatedExponentialBackOff} that applications use (without server hints, as here, it decides as
 * {@code JitteredTruncatedBackOffPolicy} does)
 * and, when the scenario has one, its own {@link RetryBudget} used the way {@code ModelArmorRetryPolicy}
 * uses it (a retryable failure takes a token, the retry is refused while the bucket is half empty, a
 * success gives back). A discrete-event loop: nobody sleeps, one random source seeded by the scenario.
 */
public final class RetryStormSimulation {

	/** Width of the server's capacity slots and of the chart's buckets, in milliseconds. */
	static final long SLOT_MILLIS = 100;

	private RetryStormSimulation() {
	}

	/**
	 * What to simulate.
	 *
	 * @param clients how many clients fail together
	 * @param outage how long the server is down, from time 0
	 * @param capacityPerSecond attempts per second the server answers once it is back
	 * @param latency time from an attempt to its answer
	 * @param arrivalSpread the clients' first attempts are spread uniformly over {@code [0, arrivalSpread)}
	 * @param settings the clients' retry settings (schedule, deadline, jitter mode, budget)
	 * @param seed seeds both the arrivals (same for every mode) and the jitter
	 */
	public record Scenario(int clients, Duration outage, int capacityPerSecond, Duration latency,
			Duration arrivalSpread, RetrySettings settings, long seed) {

		/**
		 * The scenario with other retry settings.
		 * @param other the settings
		 * @return the scenario
		 */
		public Scenario with(RetrySettings other) {
			return new Scenario(this.clients, this.outage, this.capacityPerSecond, this.latency, this.arrivalSpread,
					other, this.seed);
		}

	}

	/**
	 * What happened.
	 *
	 * @param scenario what was simulated
	 * @param totalCalls attempts the server received
	 * @param succeeded clients whose call succeeded
	 * @param gaveUpAtDeadline clients that stopped because the next wait would end past the deadline
	 * @param gaveUpOnBudget clients that stopped because their retry budget was half empty
	 * @param peakCallsPerSecondAfterRecovery the most attempts in one second (a sliding window of 100 ms
	 * slots) from the end of the outage on
	 * @param settledAt when the last client succeeded or gave up
	 * @param callsPerSlot attempts received in each 100 ms slot, from time 0
	 */
	public record Result(Scenario scenario, long totalCalls, int succeeded, int gaveUpAtDeadline, int gaveUpOnBudget,
			long peakCallsPerSecondAfterRecovery, Duration settledAt, long[] callsPerSlot) {

		/**
		 * A short name of the retry strategy, e.g. {@code full+budget}.
		 * @return the label
		 */
		public String label() {
			RetrySettings settings = this.scenario.settings();
			return settings.jitterMode().name().toLowerCase() + ((settings.budget() != null) ? "+budget" : "");
		}

	}

	/**
	 * Runs one scenario.
	 * @param scenario what to simulate
	 * @return what happened
	 */
	public static Result run(Scenario scenario) {
		SimulatedClock clock = new SimulatedClock();
		SplittableRandom arrivals = new SplittableRandom(scenario.seed());
		RetryRuntime runtime = new RetryRuntime(clock, (millis) -> {
			throw new IllegalStateException("the simulation never sleeps");
		}, new SplittableRandom(scenario.seed() ^ 0x5DEECE66DL));
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(scenario.settings(), runtime);
		long outageEnd = scenario.outage().toMillis();
		long latency = scenario.latency().toMillis();
		long capacityPerSlot = Math.max(1, scenario.capacityPerSecond() * SLOT_MILLIS / 1000);
		RetryBudgetSettings budgetSettings = scenario.settings().budget();

		Client[] clients = new Client[scenario.clients()];
		PriorityQueue<Event> events = new PriorityQueue<>();
		long sequence = 0;
		for (int i = 0; i < clients.length; i++) {
			clients[i] = new Client((budgetSettings != null) ? new RetryBudget(budgetSettings, clock) : null);
			long start = arrivals.nextLong(Math.max(1, scenario.arrivalSpread().toMillis()));
			events.add(new Event(start, sequence++, i, Kind.START));
		}

		long[] slots = new long[64];
		long[] served = new long[64];
		long totalCalls = 0;
		int succeeded = 0;
		int gaveUpAtDeadline = 0;
		int gaveUpOnBudget = 0;
		long settledAt = 0;
		while (!events.isEmpty()) {
			Event event = events.poll();
			clock.set(event.time);
			Client client = clients[event.client];
			switch (event.kind) {
				case START -> {
					// The call starts: its deadline runs from the first attempt, as in JitteredTruncatedBackOffPolicy.start.
					client.waits = backOff.start();
					if (client.budget != null) {
						client.budget.onCall("us-central1");
					}
					events.add(new Event(event.time, sequence++, event.client, Kind.ATTEMPT));
				}
				case ATTEMPT -> {
					int slot = (int) (event.time / SLOT_MILLIS);
					slots = grown(slots, slot);
					served = grown(served, slot);
					slots[slot]++;
					totalCalls++;
					boolean ok = event.time >= outageEnd && served[slot] < capacityPerSlot;
					if (ok) {
						served[slot]++;
					}
					events.add(new Event(event.time + latency, sequence++, event.client, ok ? Kind.SUCCESS : Kind.FAILURE));
				}
				case SUCCESS -> {
					succeeded++;
					settledAt = Math.max(settledAt, event.time);
				}
				case FAILURE -> {
					// The order of RetryTemplate: register the failure (the budget is asked for the retry), ask the
					// retry policy (the budget may have refused), then ask the back-off (the deadline may refuse).
					if (client.budget != null) {
						if (!client.budget.tryRetry("us-central1", false)) {
							gaveUpOnBudget++;
							settledAt = Math.max(settledAt, event.time);
							continue;
						}
					}
					// without server hints the only reason to stop is the deadline
					long wait = client.waits.nextBackOff();
					if (wait != BackOffExecution.STOP) {
						events.add(new Event(event.time + wait, sequence++, event.client, Kind.ATTEMPT));
					}
					else {
						gaveUpAtDeadline++;
						settledAt = Math.max(settledAt, event.time);
					}
				}
			}
		}
		int lastSlot = (int) (settledAt / SLOT_MILLIS) + 1;
		long[] callsPerSlot = Arrays.copyOf(slots, Math.min(slots.length, lastSlot + 1));
		return new Result(scenario, totalCalls, succeeded, gaveUpAtDeadline, gaveUpOnBudget,
				peakPerSecond(callsPerSlot, (int) (outageEnd / SLOT_MILLIS)), Duration.ofMillis(settledAt), callsPerSlot);
	}

	/**
	 * The six strategies docs/retry-storm.md compares: each jitter mode without and with the default retry budget.
	 * @param base the settings to vary (schedule and deadline)
	 * @return the settings, seed first
	 */
	public static List<RetrySettings> strategies(RetrySettings base) {
		List<RetrySettings> all = new ArrayList<>();
		for (JitterMode mode : JitterMode.values()) {
			all.add(base.withJitterMode(mode));
			all.add(base.withJitterMode(mode).withBudget(RetryBudgetSettings.DEFAULTS));
		}
		return all;
	}

	static long peakPerSecond(long[] callsPerSlot, int fromSlot) {
		int window = (int) (1000 / SLOT_MILLIS);
		long peak = 0;
		long sum = 0;
		for (int i = fromSlot; i < callsPerSlot.length; i++) {
			sum += callsPerSlot[i];
			if (i - window >= fromSlot) {
				sum -= callsPerSlot[i - window];
			}
			peak = Math.max(peak, sum);
		}
		return peak;
	}

	private static long[] grown(long[] array, int index) {
		return (index < array.length) ? array : Arrays.copyOf(array, Math.max(index + 1, array.length * 2));
	}

	private enum Kind {

		START, ATTEMPT, SUCCESS, FAILURE

	}

	private record Event(long time, long sequence, int client, Kind kind) implements Comparable<Event> {

		@Override
		public int compareTo(Event other) {
			int byTime = Long.compare(this.time, other.time);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

	private static final class Client {

		final RetryBudget budget;

		BackOffExecution waits;

		Client(RetryBudget budget) {
			this.budget = budget;
		}

	}

	/** The simulation's clock: it tells the time of the event being handled. */
	static final class SimulatedClock extends Clock {

		private static final Instant ZERO = Instant.parse("2026-01-01T00:00:00Z");

		private long millis;

		void set(long millis) {
			this.millis = millis;
		}

		@Override
		public Instant instant() {
			return ZERO.plusMillis(this.millis);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

	}

}
