package dev.modelarmor.benchmarks.reactive;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.test.ModelArmorStandIn;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The non-blocking path's harness, one run (not a timed test): the blocking path ({@code screen} on a thread of its
 * own per screening, or on Reactor's {@code boundedElastic} as the advisor did) against the non-blocking one
 * ({@code screenAsync} over the client's {@code sendAsync} path), first during a 503 outage with a 3 s retry
 * deadline at N concurrent screenings (the slowest end, the platform threads alive, the wait of an unrelated
 * {@code boundedElastic} task), then against the test kit's stand-in answering after 60 ms (screenings per
 * second per core, and the process CPU per screening).
 *
 * <p>Arguments: the concurrencies of the outage ({@code 64,512,2048}), seconds of load per stand-in run (5).
 */
public final class NonBlockingHarness {

	private static final Duration DEADLINE = Duration.ofSeconds(3);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final int CORES = Runtime.getRuntime().availableProcessors();

	private NonBlockingHarness() {
	}

	public static void main(String[] args) throws Exception {
		String[] ns = ((args.length > 0) ? args[0] : "64,512,2048").split(",");
		int seconds = (args.length > 1) ? Integer.parseInt(args[1]) : 5;
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "Non-blocking harness: %d cores, Java %s, retry deadline %d s%n%n",
				CORES, Runtime.version().feature(), DEADLINE.toSeconds()));
		out.append("| 503 outage, N screenings | path | slowest end | platform threads (peak, +over idle) "
				+ "| unrelated boundedElastic task, longest wait | all failed closed |\n|---|---|---|---|---|---|\n");
		for (String n : ns) {
			int count = Integer.parseInt(n.trim());
			if (count <= 64) {
				out.append(outage(count, Path.BOUNDED_ELASTIC)).append('\n');
			}
			out.append(outage(count, Path.THREAD_EACH)).append('\n');
			out.append(outage(count, Path.NON_BLOCKING)).append('\n');
			System.out.print(out);
			out.setLength(0);
		}
		out.append("\n| stand-in at 60 ms, concurrency | path | screenings/s | per core | CPU per screening "
				+ "| platform threads (peak) |\n|---|---|---|---|---|---|\n");
		for (int concurrency : new int[] { 64, 256 }) {
			out.append(load(concurrency, seconds, false)).append('\n');
			out.append(load(concurrency, seconds, true)).append('\n');
		}
		System.out.println(out);
	}

	private enum Path {

		BOUNDED_ELASTIC("blocking `screen` on boundedElastic"), THREAD_EACH("blocking `screen`, a platform thread each"),
		NON_BLOCKING("non-blocking `screenAsync`");

		private final String label;

		Path(String label) {
			this.label = label;
		}

	}

	private static ModelArmorTemplate client(ModelArmorStandIn standIn) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(standIn.url()))
			.retrySettings(new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, DEADLINE, true, true))
			.retryRuntime(RetryRuntime.system())
			.projectId("bench")
			.templateId("outage")
			.build();
	}

	private static String outage(int n, Path path) throws Exception {
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start(); ModelArmorTemplate client = client(standIn);
				ModelArmorScreening screening = ModelArmorScreening.builder(client).build()) {
			standIn.failWith(503).always();
			System.gc();
			int idle = platformThreads();
			AtomicLong peak = new AtomicLong(idle);
			AtomicLong longestUnrelatedWait = new AtomicLong();
			AtomicBoolean running = new AtomicBoolean(true);
			Thread sampler = new Thread(() -> sample(running, peak, longestUnrelatedWait), "harness-sampler");
			sampler.setDaemon(true);
			long started = System.nanoTime();
			List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>(n);
			ExecutorService threads = (path == Path.THREAD_EACH) ? Executors.newFixedThreadPool(n) : null;
			sampler.start();
			for (int i = 0; i < n; i++) {
				ScreeningRequest request = ScreeningRequest.prompt("harness", "prompt " + i);
				decisions.add(switch (path) {
					case NON_BLOCKING -> screening.screenAsync(request);
					case THREAD_EACH -> CompletableFuture.supplyAsync(() -> screening.screen(request), threads);
					case BOUNDED_ELASTIC -> Mono.fromCallable(() -> screening.screen(request))
						.subscribeOn(Schedulers.boundedElastic())
						.toFuture();
				});
			}
			CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
			long slowest = System.nanoTime() - started;
			running.set(false);
			sampler.join();
			if (threads != null) {
				threads.shutdownNow();
			}
			boolean closed = decisions.stream().allMatch((d) -> d.join() instanceof ScreeningDecision.NotScreened);
			return String.format(Locale.ROOT, "| %d | %s | %.2f s | %d (+%d) | %d ms | %s |", n, path.label,
					slowest / 1e9, peak.get(), peak.get() - idle, longestUnrelatedWait.get() / 1_000_000,
					closed ? "yes" : "NO");
		}
	}

	/** Every 50 ms: the threads alive, and how long an unrelated boundedElastic task waits for its thread. */
	private static void sample(AtomicBoolean running, AtomicLong peak, AtomicLong longestWait) {
		while (running.get()) {
			peak.accumulateAndGet(platformThreads(), Math::max);
			long asked = System.nanoTime();
			Long ran = Mono.fromCallable(System::nanoTime).subscribeOn(Schedulers.boundedElastic())
				.block(Duration.ofMinutes(5));
			if (ran != null) {
				longestWait.accumulateAndGet(ran - asked, Math::max);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/** Live threads of the process, the stand-in's own server threads left out. */
	private static int platformThreads() {
		int count = 0;
		for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
			if (info != null && !info.getThreadName().startsWith("modelarmor-stand-in")
					&& !info.getThreadName().startsWith("HTTP-Dispatcher")) {
				count++;
			}
		}
		return count;
	}

	private static String load(int concurrency, int seconds, boolean nonBlocking) throws Exception {
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start(); ModelArmorTemplate client = client(standIn);
				ModelArmorScreening screening = ModelArmorScreening.builder(client).build()) {
			standIn.delay(Duration.ofMillis(60)).always();
			// warm up
			for (int i = 0; i < 200; i++) {
				screening.screen(ScreeningRequest.prompt("warm-up", "hello " + i));
			}
			com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
				.getOperatingSystemMXBean();
			AtomicLong done = new AtomicLong();
			AtomicBoolean running = new AtomicBoolean(true);
			AtomicLong peak = new AtomicLong(platformThreads());
			long cpuBefore = os.getProcessCpuTime();
			long started = System.nanoTime();
			CountDownLatch stopped = new CountDownLatch(concurrency);
			ExecutorService threads = nonBlocking ? null : Executors.newFixedThreadPool(concurrency);
			for (int i = 0; i < concurrency; i++) {
				if (nonBlocking) {
					chain(screening, running, done, stopped);
				}
				else {
					threads.execute(() -> {
						while (running.get()) {
							screening.screen(ScreeningRequest.prompt("load", "hello"));
							done.incrementAndGet();
						}
						stopped.countDown();
					});
				}
			}
			long end = started + TimeUnit.SECONDS.toNanos(seconds);
			while (System.nanoTime() < end) {
				peak.accumulateAndGet(platformThreads(), Math::max);
				Thread.sleep(100);
			}
			running.set(false);
			long count = done.get();
			long elapsed = System.nanoTime() - started;
			long cpu = os.getProcessCpuTime() - cpuBefore;
			stopped.await(1, TimeUnit.MINUTES);
			if (threads != null) {
				threads.shutdownNow();
			}
			double perSecond = count / (elapsed / 1e9);
			return String.format(Locale.ROOT, "| %d | %s | %.0f | %.0f | %.0f µs | %d |", concurrency,
					nonBlocking ? Path.NON_BLOCKING.label : Path.THREAD_EACH.label, perSecond, perSecond / CORES,
					cpu / 1e3 / Math.max(1, count), peak.get());
		}
	}

	/** One of the non-blocking screenings in flight: each ends by starting the next, on no thread of its own. */
	private static void chain(ModelArmorScreening screening, AtomicBoolean running, AtomicLong done,
			CountDownLatch stopped) {
		if (!running.get()) {
			stopped.countDown();
			return;
		}
		screening.screenAsync(ScreeningRequest.prompt("load", "hello")).whenComplete((decision, failure) -> {
			done.incrementAndGet();
			chain(screening, running, done, stopped);
		});
	}

}
