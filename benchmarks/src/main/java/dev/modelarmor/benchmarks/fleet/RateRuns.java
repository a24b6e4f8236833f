package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.test.ModelArmorStandIn;

/**
 * Google's strategy with the defaults at a busy instance's rates, in real time: a server flapping at 30 %
 * offered at a steady rate on the blocking and the non-blocking path, and two locations of one instance, one
 * failing for a while. Calls are offered open-loop (a call starts on time whether or not the ones before it
 * have ended), as a busy service's requests come.
 */
final class RateRuns {

	private static final String QUESTION = "When does the train to Lyon leave?";

	private static final String US = "us-central1";

	private static final String EU = "europe-west4";

	private RateRuns() {
	}

	/** 30 % random 503s, {@code rate} calls a second for {@code seconds}, on one path. */
	static String flapping(ModelArmorStandIn standIn, int rate, int seconds, boolean nonBlocking) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			SplittableRandom random = new SplittableRandom(30);
			proxy.answer((request, nanos) -> {
				synchronized (random) {
					return (random.nextDouble() < 0.3) ? 503 : 0;
				}
			});
			StrategyRuns.BreakerWatch watch = StrategyRuns.BreakerWatch.start(fleet);
			Offered offered = offer(rate, seconds, (at) -> call(fleet.operations(0), nonBlocking));
			watch.stop();
			double tail = offered.calls * Math.pow(0.3, 6);
			return String.format(Locale.ROOT,
					"| flapping: 30 %% random 503s, %d calls/s for %d s, %s | no call fails but Google's own tail (six "
							+ "503s in a row: %.1f expected) | %d calls, %d failed %s, requests / calls %.2f, breaker %s, "
							+ "slowest %s, offered on time: %.0f %% |",
					rate, seconds, nonBlocking ? "non-blocking path" : "blocking path", tail, offered.calls,
					offered.failed(), offered.outcomes, (double) proxy.requests() / offered.calls,
					watch.everOpen() ? "OPENED" : "stayed closed", Latencies.millis(offered.latencies().max()),
					100.0 * offered.onTime / offered.calls);
		}
	}

	/**
	 * One instance, {@code rate} calls a second to each of us-central1 and europe-west4 for 5 + outage + 25 s;
	 * europe-west4 answers 503 to everything from 5 s for {@code outageSeconds}.
	 */
	static String twoLocations(ModelArmorStandIn standIn, int rate, int outageSeconds) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(1, FleetApplication.class, proxy.url(), Duration.ofSeconds(60))) {
			long from = TimeUnit.SECONDS.toNanos(5);
			long to = from + TimeUnit.SECONDS.toNanos(outageSeconds);
			AtomicLong usRequests = new AtomicLong();
			AtomicLong euRequests = new AtomicLong();
			proxy.answer(new QuotaProxy.Rule() {

				@Override
				public int status(long request, long nanos) {
					return 0;
				}

				@Override
				public int status(String path, long request, long nanos) {
					if (path.contains("/locations/" + EU + "/")) {
						euRequests.incrementAndGet();
						return (nanos >= from && nanos < to) ? 503 : 0;
					}
					usRequests.incrementAndGet();
					return 0;
				}

			});
			ModelArmorOperations us = fleet.operations(0).withTemplate(TemplateReference.of("fleet-template", US));
			ModelArmorOperations eu = fleet.operations(0).withTemplate(TemplateReference.of("fleet-template", EU));
			long origin = System.nanoTime();
			AtomicLong opened = new AtomicLong();
			AtomicLong closed = new AtomicLong();
			Thread watch = new Thread(() -> {
				while (!Thread.currentThread().isInterrupted()) {
					String state = fleet.breakerState(0, EU);
					long now = System.nanoTime();
					if (!state.equals("closed")) {
						opened.compareAndSet(0, now);
					}
					else if (opened.get() != 0) {
						closed.compareAndSet(0, now);
					}
					try {
						Thread.sleep(5);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "eu-breaker-watch");
			watch.setDaemon(true);
			watch.start();
			int seconds = 5 + outageSeconds + 25;
			Offered usCalls = new Offered();
			Offered euCalls = new Offered();
			ExecutorService callers = Executors.newCachedThreadPool();
			long perCall = (long) (1e9 / rate);
			for (int i = 0; i < seconds * rate; i++) {
				long wait = origin + i * perCall - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				callers.execute(() -> usCalls.run(() -> us.sanitizeUserPrompt(QUESTION)));
				callers.execute(() -> euCalls.run(() -> eu.sanitizeUserPrompt(QUESTION)));
			}
			callers.shutdown();
			callers.awaitTermination(120, TimeUnit.SECONDS);
			watch.interrupt();
			double openedAfter = (opened.get() != 0) ? (opened.get() - origin - from) / 1e9 : Double.NaN;
			double closedAfter = (closed.get() != 0) ? (closed.get() - origin - to) / 1e9 : Double.NaN;
			List<Long> failFast = new ArrayList<>();
			int euFailedAfterClose = 0;
			for (Offered.Call call : euCalls.ended) {
				if (call.outcome() == CallOutcome.CIRCUIT_OPEN && call.attempts() == 0) {
					failFast.add(call.nanos());
				}
				if (call.failed() && closed.get() != 0 && call.start() > closed.get()) {
					euFailedAfterClose++;
				}
			}
			Latencies fast = new Latencies(failFast);
			return String.format(Locale.ROOT,
					"| two locations, %d calls/s to each; europe-west4 503 to everything for %d s | every call to "
							+ "us-central1 succeeds at its first attempt; europe-west4's fail fast once its breaker opens "
							+ "and it recovers alone | us-central1: %d calls, %d failed, %d requests, slowest %s; "
							+ "europe-west4: breaker open %.1f s into the outage, %d calls refused at once (p50 / p99 %s / "
							+ "%s), closed %.1f s after recovery, %d of the calls after it failed, %d requests |",
					rate, outageSeconds, usCalls.calls, usCalls.failed(), usRequests.get(),
					Latencies.millis(usCalls.latencies().max()), openedAfter, fast.count(),
					Latencies.fineMillis(fast.percentile(50)), Latencies.fineMillis(fast.percentile(99)), closedAfter,
					euFailedAfterClose, euRequests.get());
		}
	}

	private static void call(ModelArmorOperations operations, boolean nonBlocking) {
		if (nonBlocking) {
			operations.sanitizeUserPromptAsync(DataItem.text(QUESTION), SanitizeOptions.NONE, Runnable::run).join();
		}
		else {
			operations.sanitizeUserPrompt(QUESTION);
		}
	}

	/** Offers calls open-loop; a non-blocking call holds no thread while it waits. */
	private static Offered offer(int rate, int seconds, CallBody body) throws InterruptedException {
		Offered offered = new Offered();
		ExecutorService callers = Executors.newCachedThreadPool();
		long perCall = (long) (1e9 / rate);
		long start = System.nanoTime();
		for (int i = 0; i < rate * seconds; i++) {
			long due = start + i * perCall;
			long wait = due - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			if (System.nanoTime() - due < TimeUnit.MILLISECONDS.toNanos(50)) {
				offered.onTime++;
			}
			callers.execute(() -> offered.run(() -> body.call(0)));
		}
		callers.shutdown();
		callers.awaitTermination(180, TimeUnit.SECONDS);
		return offered;
	}

	@FunctionalInterface
	private interface CallBody {

		void call(long at) throws Exception;

	}

	/** The calls of one run, as they ended. */
	private static final class Offered {

		int calls;

		int onTime;

		final ConcurrentLinkedQueue<Call> ended = new ConcurrentLinkedQueue<>();

		final Map<CallOutcome, Integer> outcomes = new ConcurrentSkipListMap<>();

		record Call(long start, long nanos, boolean failed, CallOutcome outcome, int attempts) {
		}

		interface Body {

			void run() throws Exception;

		}

		void run(Body body) {
			synchronized (this) {
				this.calls++;
			}
			long began = System.nanoTime();
			boolean failed = false;
			CallOutcome outcome = CallOutcome.SUCCESS;
			int attempts = 0;
			try {
				body.run();
			}
			catch (ModelArmorException ex) {
				failed = true;
				outcome = StrategyRuns.Load.innermost(ex);
				attempts = ex.attempts();
			}
			catch (java.util.concurrent.CompletionException ex) {
				failed = true;
				outcome = (ex.getCause() instanceof ModelArmorException armor) ? StrategyRuns.Load.innermost(armor)
						: CallOutcome.NOT_SCREENED;
				attempts = (ex.getCause() instanceof ModelArmorException armor) ? armor.attempts() : 0;
			}
			catch (Exception ex) {
				failed = true;
				outcome = CallOutcome.NOT_SCREENED;
			}
			if (failed) {
				this.outcomes.merge(outcome, 1, Integer::sum);
			}
			this.ended.add(new Call(began, System.nanoTime() - began, failed, outcome, attempts));
		}

		int failed() {
			return (int) this.ended.stream().filter(Call::failed).count();
		}

		Latencies latencies() {
			return new Latencies(this.ended.stream().map(Call::nanos).toList());
		}

	}

}
