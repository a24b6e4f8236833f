package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.test.ModelArmorStandIn;

/**
 * What Google's retry strategy gives one application with the starter's defaults (retry budget and circuit
 * breaker on), in real time against the stand-in behind a {@link QuotaProxy} that fails requests on purpose:
 * a single call in a fresh application, a 3 s blip, a server flapping at 30 %, and a sustained outage. Each
 * row names its goal and what was measured.
 */
final class StrategyRuns {

	private static final double CALLS_PER_SECOND = 20;

	private static final String QUESTION = "When does the train to Lyon leave?";

	private StrategyRuns() {
	}

	/**
	 * Runs rows by name ({@code single}, {@code blip}, {@code flapping}, {@code outage}), printing each.
	 * @param args the rows; none: all four
	 */
	public static void main(String[] args) throws Exception {
		System.setProperty("sun.net.httpserver.nodelay", "true");
		List<String> rows = (args.length > 0) ? List.of(args) : List.of("single", "blip", "flapping", "outage");
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start()) {
			for (String row : rows) {
				String line = switch (row) {
					case "single" -> singleCall(standIn);
					case "blip" -> blip(standIn);
					case "flapping" -> flapping(standIn, 150);
					case "outage" -> outage(standIn, 60);
					default -> throw new IllegalArgumentException("no row " + row);
				};
				System.out.println(line);
			}
		}
	}

	/**
	 * Runs the four rows and, in a full run, the flapping server at each of {@link #rates()} on both paths and
	 * two locations of one instance, one failing.
	 * @param standIn Model Armor's stand-in
	 * @param outageSeconds the length of the sustained outage (60 in a full run)
	 * @param flappingCallsPerThread the calls of each of 16 threads against the flapping server (150 in a full run)
	 * @return the table, in Markdown
	 */
	static String report(ModelArmorStandIn standIn, int outageSeconds, int flappingCallsPerThread) throws Exception {
		StringBuilder out = new StringBuilder("| row, one application, the defaults | goal | measured |\n|---|---|---|\n");
		out.append(singleCall(standIn)).append('\n');
		out.append(blip(standIn)).append('\n');
		out.append(flapping(standIn, flappingCallsPerThread)).append('\n');
		out.append(outage(standIn, outageSeconds)).append('\n');
		if (outageSeconds >= FleetHarness.FULL_RUN_SECONDS) {
			// a full run only: each row waits out its slowest calls' retries (up to about 35 s)
			for (int rate : rates()) {
				out.append(RateRuns.flapping(standIn, rate, 15, false)).append('\n');
				out.append(RateRuns.flapping(standIn, rate, 15, true)).append('\n');
			}
			out.append(RateRuns.twoLocations(standIn, (int) CALLS_PER_SECOND, outageSeconds)).append('\n');
		}
		return out.toString();
	}

	/** The rates of the flapping rows: {@code -Dfleet.rates=20,100,200} by default. */
	static List<Integer> rates() {
		return java.util.Arrays.stream(System.getProperty("fleet.rates", "20,100,200").split(","))
			.map(String::trim)
			.map(Integer::valueOf)
			.toList();
	}

	/** One call in a fresh application; the server answers 500, 502, 503, 504, then 200. */
	static String singleCall(ModelArmorStandIn standIn) throws Exception {
		int[] statuses = { 500, 502, 503, 504 };
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			proxy.answer((request, nanos) -> (request < statuses.length) ? statuses[(int) request] : 0);
			String outcome;
			try {
				fleet.questions(0).ask(QUESTION);
				outcome = "success";
			}
			catch (ModelArmorException ex) {
				outcome = "failed " + ex.outcome().map(CallOutcome::tag).orElse("?");
			}
			List<Long> arrivals = proxy.arrivals();
			StringBuilder waits = new StringBuilder();
			boolean withinFormula = true;
			for (int n = 1; n < arrivals.size(); n++) {
				double wait = (arrivals.get(n) - arrivals.get(n - 1)) / 1e9;
				// min(2^n + U[0, 1], 32) s, plus the attempt's own time on loopback
				withinFormula &= wait >= (1 << (n - 1)) && wait <= (1 << (n - 1)) + 1 + 0.25;
				waits.append((n > 1) ? ", " : "").append(String.format(Locale.ROOT, "%.2f s", wait));
			}
			return String.format(Locale.ROOT, "| single call in a fresh application: 500, 502, 503, 504, then 200 "
					+ "| 5 attempts, waits within min(2^n + U[0,1], 32) s, success | %d attempts, waits %s (%s), %s |",
					arrivals.size(), waits, withinFormula ? "all within the formula" : "NOT within the formula", outcome);
		}
	}

	/** 503 to every request for 3 s, while the application makes 20 calls a second for 10 s. */
	static String blip(ModelArmorStandIn standIn) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			long from = TimeUnit.SECONDS.toNanos(3);
			long to = TimeUnit.SECONDS.toNanos(6);
			proxy.answer((request, nanos) -> (nanos >= from && nanos < to) ? 503 : 0);
			BreakerWatch watch = BreakerWatch.start(fleet);
			Load load = Load.offer(fleet, 10);
			watch.stop();
			return String.format(Locale.ROOT, "| blip: 503 to everything for 3 s, 20 calls/s for 10 s | no call fails, "
					+ "each within its deadline | %d calls, %d failed, slowest %s, breaker %s, %d requests |", load.calls,
					load.failed.get(), Latencies.millis(load.latencies().max()), watch.everOpen() ? "OPENED" : "stayed closed",
					proxy.requests());
		}
	}

	/** 30 % random 503s; 16 threads, each making its calls one after another. */
	static String flapping(ModelArmorStandIn standIn, int callsPerThread) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			SplittableRandom random = new SplittableRandom(30);
			proxy.answer((request, nanos) -> {
				synchronized (random) {
					return (random.nextDouble() < 0.3) ? 503 : 0;
				}
			});
			BreakerWatch watch = BreakerWatch.start(fleet);
			ExecutorService threads = Executors.newFixedThreadPool(16);
			AtomicInteger failed = new AtomicInteger();
			java.util.Map<CallOutcome, Integer> outcomes = new java.util.concurrent.ConcurrentSkipListMap<>();
			List<Future<?>> done = new ArrayList<>();
			long started = System.nanoTime();
			for (int t = 0; t < 16; t++) {
				done.add(threads.submit(() -> {
					for (int i = 0; i < callsPerThread; i++) {
						try {
							fleet.questions(0).ask(QUESTION);
						}
						catch (ModelArmorException ex) {
							failed.incrementAndGet();
							outcomes.merge(Load.innermost(ex), 1, Integer::sum);
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
			threads.shutdown();
			watch.stop();
			long calls = 16L * callsPerThread;
			return String.format(Locale.ROOT, "| flapping: 30 %% random 503s, 16 threads x %d calls | every call completes, "
					+ "requests / calls about 1.43 | %d calls, %d failed %s, requests / calls %.2f, breaker %s, %.0f s |",
					callsPerThread, calls, failed.get(), outcomes, (double) proxy.requests() / calls,
					watch.everOpen() ? "OPENED" : "stayed closed", (System.nanoTime() - started) / 1e9);
		}
	}

	/** Healthy 5 s, 503 to everything for {@code outageSeconds}, healthy 20 s; 20 calls a second throughout. */
	static String outage(ModelArmorStandIn standIn, int outageSeconds) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			long from = TimeUnit.SECONDS.toNanos(5);
			long to = from + TimeUnit.SECONDS.toNanos(outageSeconds);
			proxy.answer((request, nanos) -> (nanos >= from && nanos < to) ? 503 : 0);
			long origin = System.nanoTime();
			BreakerWatch watch = BreakerWatch.start(fleet);
			Load load = Load.offer(fleet, 5 + outageSeconds + 20);
			watch.stop();
			// NaN when the breaker never opened (an outage shorter than what opens it, as in CI's short run)
			double opened = (watch.firstOpen() != 0) ? (watch.firstOpen() - origin - from) / 1e9 : Double.NaN;
			double closed = (watch.closedAfterOpen() > 0) ? (watch.closedAfterOpen() - origin - to) / 1e9 : Double.NaN;
			// calls the open breaker refused at once (no attempt), and calls it let through (half-open probes, calls
			// under way when it opened) whose retries it then cut
			List<Long> failFast = new ArrayList<>();
			List<Long> cut = new ArrayList<>();
			int failedAfterRecovery = 0;
			for (Load.Call call : load.ended) {
				long at = call.start - origin;
				if (call.outcome == CallOutcome.CIRCUIT_OPEN) {
					(call.attempts == 0 ? failFast : cut).add(call.nanos);
				}
				if (call.failed && watch.closedAfterOpen() > 0 && call.start > watch.closedAfterOpen()) {
					failedAfterRecovery++;
				}
				if (at < 0) {
					throw new IllegalStateException("a call before the origin");
				}
			}
			Latencies fast = new Latencies(failFast);
			Latencies slow = new Latencies(cut);
			return String.format(Locale.ROOT, "| sustained outage: 503 to everything for %d s, 20 calls/s | breaker "
					+ "open within 15 s, then fail closed in under 100 ms; closes on recovery within its wait plus "
					+ "probes, next calls succeed | open %.1f s into the outage; %d calls refused at once, p50 / p99 / "
					+ "max %s / %s / %s; %d calls let through (probes, calls under way) cut after their retries, max %s; "
					+ "%d requests in all; closed %.1f s after recovery; %d of the calls after it failed |",
					outageSeconds, opened, fast.count(), Latencies.fineMillis(fast.percentile(50)),
					Latencies.fineMillis(fast.percentile(99)), Latencies.fineMillis(fast.max()), slow.count(),
					Latencies.millis(slow.max()), proxy.requests(), closed, failedAfterRecovery);
		}
	}

	/** Polls the breaker's state of the first instance every 5 ms: when it first left closed, when it closed again. */
	static final class BreakerWatch implements AutoCloseable {

		private final Thread thread;

		private final AtomicLong firstOpen = new AtomicLong();

		private final AtomicLong closedAfterOpen = new AtomicLong();

		private volatile boolean running = true;

		private BreakerWatch(Fleet fleet) {
			this.thread = new Thread(() -> {
				while (this.running) {
					String state = fleet.breakerState(0);
					long now = System.nanoTime();
					if (!state.equals("closed")) {
						this.firstOpen.compareAndSet(0, now);
					}
					else if (this.firstOpen.get() != 0) {
						this.closedAfterOpen.compareAndSet(0, now);
					}
					try {
						Thread.sleep(5);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "breaker-watch");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		static BreakerWatch start(Fleet fleet) {
			return new BreakerWatch(fleet);
		}

		void stop() throws InterruptedException {
			this.running = false;
			this.thread.join();
		}

		boolean everOpen() {
			return this.firstOpen.get() != 0;
		}

		long firstOpen() {
			return this.firstOpen.get();
		}

		long closedAfterOpen() {
			return this.closedAfterOpen.get();
		}

		@Override
		public void close() throws InterruptedException {
			stop();
		}

	}

	/** {@link #CALLS_PER_SECOND} calls a second on the first instance, each on a thread of its own. */
	static final class Load {

		final int calls;

		final AtomicInteger failed = new AtomicInteger();

		final ConcurrentLinkedQueue<Call> ended = new ConcurrentLinkedQueue<>();

		private Load(int calls) {
			this.calls = calls;
		}

		record Call(long start, long nanos, boolean failed, CallOutcome outcome, int attempts) {
		}

		static Load offer(Fleet fleet, int seconds) throws InterruptedException {
			ExecutorService callers = Executors.newCachedThreadPool();
			long perCall = (long) (1e9 / CALLS_PER_SECOND);
			int calls = (int) (seconds * CALLS_PER_SECOND);
			Load load = new Load(calls);
			long start = System.nanoTime();
			for (int i = 0; i < calls; i++) {
				long wait = start + i * perCall - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				callers.execute(() -> {
					long began = System.nanoTime();
					boolean failed = false;
					CallOutcome outcome = CallOutcome.SUCCESS;
					int attempts = 0;
					try {
						fleet.questions(0).ask(QUESTION);
					}
					catch (ModelArmorException ex) {
						failed = true;
						outcome = innermost(ex);
						attempts = innermostAttempts(ex);
						load.failed.incrementAndGet();
					}
					load.ended.add(new Call(began, System.nanoTime() - began, failed, outcome, attempts));
				});
			}
			callers.shutdown();
			callers.awaitTermination(120, TimeUnit.SECONDS);
			return load;
		}

		Latencies latencies() {
			return new Latencies(this.ended.stream().map(Call::nanos).toList());
		}

		private static int innermostAttempts(ModelArmorException ex) {
			int attempts = ex.attempts();
			for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
				if (cause instanceof ModelArmorException inner && inner.outcome().isPresent()) {
					attempts = inner.attempts();
				}
			}
			return attempts;
		}

		static CallOutcome innermost(ModelArmorException ex) {
			CallOutcome outcome = ex.outcome().orElse(CallOutcome.NOT_SCREENED);
			for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
				if (cause instanceof ModelArmorException inner && inner.outcome().isPresent()) {
					outcome = inner.outcome().get();
				}
			}
			return outcome;
		}

	}

}
