package dev.modelarmor.reliability;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetrySettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Many threads sharing one {@link ModelArmorTemplate} against a server that answers 503 three times in
 * ten, in real time with a tiny schedule: every call ends, with its own answer or the right exception;
 * the attempts the client counts are the answers the server served; no thread outlives the run and the
 * connections stay pooled.
 */
class ConcurrencySoakTests {

	static final int THREADS = 64;

	static final int CALLS = 10_000;

	/**
	 * Tiny waits, and a deadline and read timeout long enough that no attempt times out even on a loaded
	 * 2-core machine: an attempt that timed out after the server had answered would be served twice, and
	 * the exact reconciliation of attempts with answers served is the point of this test.
	 */
	static final RetrySettings TINY_SCHEDULE = new RetrySettings(
			new BackoffSchedule(Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofMillis(4)), Duration.ofSeconds(60),
			true, true);

	/**
	 * The client's HTTP executor (and the JDK HttpClient's own, should one be used): cached pools whose idle
	 * threads live 60 s, bounded by the load.
	 */
	static final Pattern HTTP_CLIENT_WORKER = Pattern.compile("HttpClient-\\d+-Worker-\\d+|modelarmor-http-\\d+");

	@Test
	void tenThousandCallsFromSixtyFourThreadsAllEndAndReconcile() throws Exception {
		try (LoopbackModelArmor server = LoopbackModelArmor
			.start(new LoopbackModelArmor.Behaviour(20_240_607L, 0.30, 0.0, 0, 0, 8))) {
			ModelArmorTemplate shared = ReliabilityFixtures.template(server, TINY_SCHEDULE,
					new HttpTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30)));
			ReliabilityFixtures.withoutRetryLines(() -> {
				soak(server, shared);
				return null;
			});
		}
	}

	private void soak(LoopbackModelArmor server, ModelArmorTemplate shared) throws Exception {
		// Warm up first so that the client's long-lived threads (the HttpClient selector, the
		// CompletableFuture delayer) belong to the baseline, then count from a clean slate.
		ModelArmorTemplate warmUp = shared.withCallObserver(new SummingObserver());
		for (int i = 0; i < 50; i++) {
			try {
				warmUp.sanitizeUserPrompt("warm-up prompt #" + i);
			}
			catch (ModelArmorException ex) {
				// a 503 to the end of the deadline is fine here
			}
		}
		long served200Before = server.served200();
		long served503Before = server.served503();
		int connectionsBefore = server.connectionsSeen();
		Set<Thread> baseline = Thread.getAllStackTraces().keySet();
		long startedBefore = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
		ManagementFactory.getThreadMXBean().resetPeakThreadCount();

		SummingObserver observer = new SummingObserver();
		ModelArmorTemplate template = shared.withCallObserver(observer);
		AtomicInteger callerNumber = new AtomicInteger();
		ExecutorService callers = Executors.newFixedThreadPool(THREADS,
				(task) -> new Thread(task, "soak-caller-" + callerNumber.incrementAndGet()));
		List<Future<Object>> futures = new ArrayList<>(CALLS);
		long start = System.nanoTime();
		for (int i = 0; i < CALLS; i++) {
			String prompt = "soak prompt #" + i;
			futures.add(callers.submit(() -> {
				try {
					return template.sanitizeUserPrompt(prompt);
				}
				catch (RuntimeException ex) {
					return ex;
				}
			}));
		}
		callers.shutdown();
		boolean allEnded = callers.awaitTermination(50, TimeUnit.SECONDS);
		long wallNanos = System.nanoTime() - start;
		int peakThreads = ManagementFactory.getThreadMXBean().getPeakThreadCount();
		assertThat(allEnded).as("all %d calls ended within 50 s", CALLS).isTrue();

		long successes = 0;
		long failures = 0;
		long attemptsOfFailures = 0;
		for (int i = 0; i < CALLS; i++) {
			Future<Object> future = futures.get(i);
			assertThat(future.isDone()).as("call %d ended", i).isTrue();
			Object ended = future.get();
			if (ended instanceof SanitizationResult result) {
				assertThat(result.deidentifiedText()).as("call %d got its own answer", i)
					.contains(LoopbackModelArmor.deidentifiedText(i));
				assertThat(result.matchedFilters()).containsExactly("sdp");
				successes++;
			}
			else if (ended instanceof ModelArmorApiException unavailable && unavailable.statusCode() == 503
					&& unavailable.outcome().orElse(null) == CallOutcome.DEADLINE_EXCEEDED) {
				assertThat(unavailable.attempts()).isGreaterThan(1);
				failures++;
				attemptsOfFailures += unavailable.attempts();
			}
			else {
				throw new AssertionError("call " + i + " ended in neither its answer nor a 503 past the deadline: "
						+ ended, (ended instanceof Throwable cause) ? cause : null);
			}
		}

		long served200 = server.served200() - served200Before;
		long served503 = server.served503() - served503Before;
		int connections = server.connectionsSeen() - connectionsBefore;
		assertThat(observer.calls.sum()).as("calls reported to the observer").isEqualTo(CALLS);
		assertThat(observer.successes.sum()).as("successes reported").isEqualTo(successes);
		assertThat(observer.failures.sum()).as("failures reported").isEqualTo(failures);
		assertThat(observer.attemptsOfFailures.sum()).as("attempts of failed calls, observer vs exceptions")
			.isEqualTo(attemptsOfFailures);
		assertThat(observer.attempts.sum()).as("attempts made = answers served (200s + 503s)")
			.isEqualTo(served200 + served503);
		assertThat(served200).as("200s served = successes").isEqualTo(successes);
		assertThat(observer.failedAttempts.sum()).as("failed attempts reported = 503s served").isEqualTo(served503);
		assertThat(server.received()).as("every request received was answered").isEqualTo(server.answersServed());
		assertThat(server.inFlight()).isZero();

		// Pooled connections: at most one per concurrent call, reused across the 10,000 calls.
		assertThat(connections).as("new connections the server saw").isLessThanOrEqualTo(THREADS);
		int established = server.establishedConnections();
		if (established >= 0) {
			assertThat(established).as("connections open after the run").isLessThanOrEqualTo(THREADS + 8);
		}

		List<Thread> leftOver = threadsBeyond(baseline, Duration.ofSeconds(5));
		long workers = leftOver.stream().filter((t) -> HTTP_CLIENT_WORKER.matcher(t.getName()).matches()).count();
		List<String> others = leftOver.stream()
			.filter((t) -> !HTTP_CLIENT_WORKER.matcher(t.getName()).matches())
			.map(Thread::getName)
			.toList();
		long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - startedBefore;

		double seconds = wallNanos / 1e9;
		System.out.printf(
				"Soak: calls=%d threads=%d attempts=%d served200=%d served503=%d failedCalls=%d wall=%.2fs calls/s=%.0f "
						+ "connections=%d established=%d liveThreadsBefore=%d after=%d (idle HttpClient workers=%d) "
						+ "peakThreads=%d threadsStarted=%d%n",
				CALLS, THREADS, observer.attempts.sum(), served200, served503, failures, seconds, CALLS / seconds,
				connections, established, baseline.size(), Thread.getAllStackTraces().size(), workers, peakThreads,
				started);
		assertThat(others).as("threads started during the run and still alive (HttpClient workers aside)")
			.hasSizeLessThanOrEqualTo(2);
		// The JDK client's cached pool runs several stages of each exchange: bounded by the load, not by THREADS.
		assertThat(workers).as("idle HttpClient workers, bounded by the concurrency").isLessThanOrEqualTo(3 * THREADS);
	}

	/** The threads alive now that were not in the baseline, polled until only expected ones are left. */
	private static List<Thread> threadsBeyond(Set<Thread> baseline, Duration patience) throws InterruptedException {
		long until = System.nanoTime() + patience.toNanos();
		while (true) {
			List<Thread> extra = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((t) -> !baseline.contains(t))
				.toList();
			boolean onlyWorkers = extra.stream().allMatch((t) -> HTTP_CLIENT_WORKER.matcher(t.getName()).matches());
			if (onlyWorkers || System.nanoTime() > until) {
				return extra;
			}
			Thread.sleep(50);
		}
	}

	/** Sums what the calls report when they end. */
	static final class SummingObserver implements ModelArmorCallObserver {

		final LongAdder calls = new LongAdder();

		final LongAdder attempts = new LongAdder();

		final LongAdder successes = new LongAdder();

		final LongAdder failures = new LongAdder();

		final LongAdder attemptsOfFailures = new LongAdder();

		final LongAdder failedAttempts = new LongAdder();

		@Override
		public Call start(String operation) {
			return new Call() {

				@Override
				public void attemptFailed(int attempt, String failure) {
					SummingObserver.this.failedAttempts.increment();
				}

				@Override
				public void finished(CallResult result) {
					SummingObserver.this.calls.increment();
					SummingObserver.this.attempts.add(result.attempts());
					if (result.outcome() == CallOutcome.SUCCESS || result.outcome() == CallOutcome.SUCCESS_AFTER_RETRY) {
						SummingObserver.this.successes.increment();
					}
					else {
						SummingObserver.this.failures.increment();
						SummingObserver.this.attemptsOfFailures.add(result.attempts());
					}
				}

			};
		}

	}

}
