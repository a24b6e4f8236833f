package dev.modelarmor.benchmarks.fleet;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.resilience.QuotaLimiter;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.resilience.ResilienceGate;
import dev.modelarmor.resilience.ResilienceObserver;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;

/**
 * The fleet harness of issue 26, one run (not a timed test): three client instances at three times the
 * quota for a while against a loopback Model Armor that answers 429 above the quota (a fixed window of one
 * second, quota/60 a second), once as the defaults were before the retry budget was on (retries, circuit
 * breaker, no limiter, no budget), once with the shipped defaults (the same with the retry budget), and
 * once with the quota limiter on, one bucket for the three (what Redis gives a fleet; Redis itself is
 * tested apart); then an outage (503 everywhere): the time a call takes to fail once the breaker is open.
 *
 * <p>Arguments: seconds of load (60), quota per minute (1200), retry deadline in seconds (60).
 */
public final class FleetHarness {

	private static final byte[] NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\"}}"
		.getBytes(StandardCharsets.UTF_8);

	private FleetHarness() {
	}

	public static void main(String[] args) throws Exception {
		int seconds = (args.length > 0) ? Integer.parseInt(args[0]) : 60;
		int quota = (args.length > 1) ? Integer.parseInt(args[1]) : 1200;
		Duration deadline = Duration.ofSeconds((args.length > 2) ? Integer.parseInt(args[2]) : 60);
		System.out.println(report(seconds, quota, deadline));
	}

	/** Runs everything and returns the tables, in Markdown. */
	static String report(int seconds, int quota, Duration deadline) throws Exception {
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "Fleet harness: 3 instances, %d s at 3 x %d/min (%d calls/s offered), "
				+ "retry deadline %d s%n%n", seconds, quota, quota * 3 / 60, deadline.toSeconds()));
		out.append("| configuration | calls | load reaching Model Armor (/min) | x quota | 200s | 429s | failed closed "
				+ "| caller p50 | caller p99 |\n|---|---|---|---|---|---|---|---|---|\n");
		RetrySettings noBudget = new RetrySettings(RetrySettings.DEFAULTS.schedule(), deadline, true, true);
		RetrySettings defaults = noBudget.withBudget(RetryBudgetSettings.DEFAULTS);
		out.append(load("retries, breaker, no budget, no limiter (the defaults before)", seconds, quota, noBudget,
				false)).append('\n');
		out.append(load("defaults (retries with the retry budget, breaker, no limiter)", seconds, quota, defaults,
				false)).append('\n');
		out.append(load("defaults + quota limiter on (max-wait 2 s)", seconds, quota, defaults, true)).append('\n');
		out.append('\n').append(outage(deadline)).append('\n');
		return out.toString();
	}

	private static String load(String name, int seconds, int quota, RetrySettings retry, boolean limited)
			throws Exception {
		Duration deadline = retry.deadline();
		try (QuotaServer server = new QuotaServer(quota / 60)) {
			QuotaLimiter shared = limited ? QuotaLimiter.local(new QuotaSettings(quota, Duration.ofSeconds(2),
					Duration.ofMillis(100)), RetryRuntime.system()) : null;
			List<ModelArmorTemplate> instances = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				instances.add(instance(server, retry, shared));
			}
			ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
			AtomicInteger failed = new AtomicInteger();
			ExecutorService callers = Executors.newCachedThreadPool();
			long perCallNanos = 1_000_000_000L / (quota * 3 / 60);
			long start = System.nanoTime();
			int calls = 0;
			server.startCounting();
			for (long next = start; next < start + TimeUnit.SECONDS.toNanos(seconds); next += perCallNanos) {
				long wait = next - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				ModelArmorTemplate instance = instances.get(calls++ % 3);
				callers.execute(() -> {
					long began = System.nanoTime();
					try {
						instance.sanitizeUserPrompt("hello");
					}
					catch (ModelArmorException ex) {
						failed.incrementAndGet();
					}
					latencies.add(System.nanoTime() - began);
				});
			}
			long loadNanos = System.nanoTime() - start;
			long reached = server.requests.get();
			callers.shutdown();
			callers.awaitTermination(deadline.toSeconds() + 30, TimeUnit.SECONDS);
			instances.forEach(ModelArmorTemplate::close);
			double perMinute = reached * 60e9 / loadNanos;
			List<Long> sorted = new ArrayList<>(latencies);
			Collections.sort(sorted);
			return String.format(Locale.ROOT, "| %s | %d | %.0f | %.2f | %d | %d | %d | %s | %s |", name, calls,
					perMinute, perMinute / quota, server.ok.get(), server.tooMany.get(), failed.get(),
					millis(percentile(sorted, 50)), millis(percentile(sorted, 99)));
		}
	}

	private static String outage(Duration deadline) throws Exception {
		try (QuotaServer server = new QuotaServer(Integer.MAX_VALUE)) {
			server.outage = true;
			RetrySettings retry = new RetrySettings(RetrySettings.DEFAULTS.schedule(), deadline, true, true)
				.withBudget(RetryBudgetSettings.DEFAULTS);
			ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("harness", CircuitBreakerSettings.DEFAULTS,
					java.time.Clock.systemUTC());
			ModelArmorTemplate client = ModelArmorTemplate.builder()
				.endpoint(ModelArmorEndpoint.of("http://127.0.0.1:" + server.port()))
				.retrySettings(retry)
				.attemptGate(new ResilienceGate(breaker, null, ResilienceObserver.NONE))
				.projectId("p")
				.templateId("t")
				.build();
			long opening = System.nanoTime();
			int callsToOpen = 0;
			while (!"open".equals(breaker.state())) {
				callsToOpen++;
				try {
					client.sanitizeUserPrompt("hello");
				}
				catch (ModelArmorException expected) {
					// the outage
				}
			}
			long toOpen = System.nanoTime() - opening;
			long atOpen = server.requests.get();
			List<Long> failFast = new ArrayList<>();
			int circuitOpen = 0;
			for (int i = 0; i < 1000; i++) {
				long began = System.nanoTime();
				try {
					client.sanitizeUserPrompt("hello");
				}
				catch (ModelArmorException ex) {
					if (ex.outcome().orElse(null) == CallOutcome.CIRCUIT_OPEN) {
						circuitOpen++;
					}
				}
				failFast.add(System.nanoTime() - began);
			}
			client.close();
			Collections.sort(failFast);
			return String.format(Locale.ROOT, "| outage (503 everywhere) | value |%n|---|---|%n"
					+ "| time until the breaker opened (%d calls) | %s |%n"
					+ "| calls failed circuit_open of 1000 afterwards | %d |%n"
					+ "| requests Model Armor got while open | %d |%n"
					+ "| time to fail closed once open, p50 / p99 / max | %s / %s / %s |", callsToOpen,
					millis(toOpen), circuitOpen, server.requests.get() - atOpen,
					micros(percentile(failFast, 50)), micros(percentile(failFast, 99)),
					micros(failFast.get(failFast.size() - 1)));
		}
	}

	private static ModelArmorTemplate instance(QuotaServer server, RetrySettings retry, QuotaLimiter shared) {
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("instance", CircuitBreakerSettings.DEFAULTS,
				java.time.Clock.systemUTC());
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of("http://127.0.0.1:" + server.port()))
			.retrySettings(retry)
			.attemptGate(new ResilienceGate(breaker, shared, ResilienceObserver.NONE))
			.projectId("p")
			.templateId("t")
			.build();
	}

	private static long percentile(List<Long> sorted, int p) {
		if (sorted.isEmpty()) {
			return 0;
		}
		return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
	}

	private static String millis(long nanos) {
		return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
	}

	private static String micros(long nanos) {
		return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
	}

	/** A loopback Model Armor that answers 429 above its quota in each one-second window, or 503 to all. */
	static final class QuotaServer implements AutoCloseable {

		private final HttpServer server;

		private final int perSecond;

		final AtomicLong requests = new AtomicLong();

		final AtomicLong ok = new AtomicLong();

		final AtomicLong tooMany = new AtomicLong();

		private final AtomicLong window = new AtomicLong();

		private final AtomicInteger inWindow = new AtomicInteger();

		volatile boolean outage;

		QuotaServer(int perSecond) throws IOException {
			this.perSecond = perSecond;
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
			this.server.setExecutor(Executors.newFixedThreadPool(16));
			this.server.createContext("/", (exchange) -> {
				exchange.getRequestBody().readAllBytes();
				this.requests.incrementAndGet();
				int status;
				if (this.outage) {
					status = 503;
				}
				else {
					long second = System.nanoTime() / 1_000_000_000L;
					if (this.window.getAndSet(second) != second) {
						this.inWindow.set(0);
					}
					status = (this.inWindow.incrementAndGet() <= this.perSecond) ? 200 : 429;
				}
				(status == 200 ? this.ok : this.tooMany).incrementAndGet();
				byte[] body = (status == 200) ? NO_MATCH : new byte[0];
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
				try (OutputStream stream = exchange.getResponseBody()) {
					stream.write(body);
				}
			});
			this.server.start();
		}

		void startCounting() {
			this.requests.set(0);
			this.ok.set(0);
			this.tooMany.set(0);
		}

		int port() {
			return this.server.getAddress().getPort();
		}

		@Override
		public void close() {
			this.server.stop(0);
			((ExecutorService) this.server.getExecutor()).shutdownNow();
		}

	}

}
