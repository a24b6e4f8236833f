package dev.modelarmor.benchmarks.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.resilience.RedisQuotaBucket;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.testredis.RedisServerProcess;
import org.jspecify.annotations.Nullable;

/**
 * The fleet harness, one run (not a timed test). First what Google's retry strategy gives one application
 * with the defaults ({@link StrategyRuns}: a single call, a blip, a flapping server, a sustained outage). Then three application instances (three Spring
 * Boot contexts with the starter's auto-configuration, each with its own circuit breaker) call a
 * {@code @ModelArmorGuarded} method at three times the quota against the test kit's
 * {@link ModelArmorStandIn} behind a {@link QuotaProxy} that answers 429 above the quota: with the defaults
 * before the retry budget, with the shipped defaults, and with the quota limiter on, shared through one real
 * Redis. Then an outage (503 everywhere): the time to fail closed once the breakers are open. Then the
 * verdict cache on Redis with Spring Boot's Redis defaults: the time Redis stalled or stopped adds to a
 * guarded call. Needs {@code /usr/bin/redis-server}.
 *
 * <p>Arguments: seconds of load (60), quota per minute (1200), retry deadline in seconds (60).
 */
public final class FleetHarness {

	private static final int INSTANCES = 3;

	/** The shortest load of a full run; a shorter one (the smoke test's) leaves out the redis-timeout row. */
	static final int FULL_RUN_SECONDS = 10;

	private FleetHarness() {
	}

	public static void main(String[] args) throws Exception {
		int seconds = (args.length > 0) ? Integer.parseInt(args[0]) : 60;
		int quota = (args.length > 1) ? Integer.parseInt(args[1]) : 1200;
		Duration deadline = Duration.ofSeconds((args.length > 2) ? Integer.parseInt(args[2]) : 60);
		report(seconds, quota, deadline, (part) -> {
			System.out.print(part);
			System.out.flush();
		});
	}

	/** Runs everything and returns the tables, in Markdown. */
	static String report(int seconds, int quota, Duration deadline) throws Exception {
		return report(seconds, quota, deadline, (part) -> {
		});
	}

	/**
	 * Runs everything and returns the tables, in Markdown, handing each table to {@code progress} as soon as it
	 * is measured, so that a long run that fails late keeps what it measured.
	 */
	static String report(int seconds, int quota, Duration deadline, java.util.function.Consumer<String> progress)
			throws Exception {
		// Without it the JDK servers' delayed acknowledgements hold every exchange on loopback.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "Fleet harness: %d application instances, %d s at 3 x %d/min "
				+ "(%d calls/s offered), retry deadline %d s%n%n", INSTANCES, seconds, quota, quota * 3 / 60,
				deadline.toSeconds()));
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start()) {
			progress.accept(out.toString());
			int mark = out.length();
			out.append(StrategyRuns.report(standIn, seconds, (seconds < FULL_RUN_SECONDS) ? 10 : 150)).append('\n');
			progress.accept(out.substring(mark));
			mark = out.length();
			out.append(LoadRun.Row.header()).append('\n');
			LoadRun.Row before = load("retries, breaker, no budget, no limiter (the defaults before)", standIn, seconds,
					quota, deadline, null, "modelarmor.retry.budget.enabled=false");
			LoadRun.Row defaults = load("defaults (retries with the retry budget, breaker, no limiter)", standIn,
					seconds, quota, deadline, null);
			LoadRun.Row limited;
			LoadRun.@Nullable Row patient;
			try (RedisServerProcess redis = RedisServerProcess.start()) {
				limited = load("defaults + quota limiter on, shared through Redis (no max-wait: the deadline)", standIn, seconds,
						quota, deadline, redis, "modelarmor.quota.enabled=true",
						"modelarmor.quota.queries-per-minute=" + quota);
				// the same with a Redis timeout that a loaded machine's Redis operations keep within: what the
				// shared bucket itself holds the fleet to, apart from the fallbacks; left out of a tiny run
				patient = (seconds < FULL_RUN_SECONDS) ? null
						: load("the same, modelarmor.quota.redis-timeout=1s", standIn, seconds, quota, deadline, redis,
						"modelarmor.quota.enabled=true", "modelarmor.quota.queries-per-minute=" + quota,
						"modelarmor.quota.redis-timeout=1s");
			}
			List<LoadRun.Row> rows = (patient != null) ? List.of(before, defaults, limited, patient)
					: List.of(before, defaults, limited);
			for (LoadRun.Row row : rows) {
				out.append(row.markdown()).append('\n');
			}
			for (LoadRun.Row row : rows) {
				out.append(notes(row));
			}
			progress.accept(out.substring(mark));
			mark = out.length();
			out.append('\n').append(outage(standIn, deadline).markdown()).append("\n\n");
			progress.accept(out.substring(mark));
			mark = out.length();
			out.append(RedisFailureRun.Row.header()).append('\n');
			out.append(RedisFailureRun.run("stalled (SIGSTOP)", RedisServerProcess::pause, standIn.url(), deadline)
				.markdown()).append('\n');
			out.append(RedisFailureRun.run("stopped", RedisServerProcess::kill, standIn.url(), deadline).markdown())
				.append('\n');
			progress.accept(out.substring(mark));
		}
		return out.toString();
	}

	private static String notes(LoadRun.Row row) {
		StringBuilder notes = new StringBuilder();
		if (row.quotaFallbacks() > 0) {
			notes.append(String.format(Locale.ROOT, "%n%s: the limiter fell back to an instance's in-process bucket "
					+ "%d times (a Redis operation failed or took longer than modelarmor.quota.redis-timeout), each "
					+ "time for %d s.%n", row.name(), row.quotaFallbacks(), RedisQuotaBucket.SKIP_AFTER_FAILURE.toSeconds()));
		}
		if (row.unexpected() > 0) {
			notes.append(String.format(Locale.ROOT, "%n%s: %d calls ended with an exception other than a "
					+ "ModelArmorException.%n", row.name(), row.unexpected()));
		}
		return notes.toString();
	}

	private static LoadRun.Row load(String name, ModelArmorStandIn standIn, int seconds, int quota, Duration deadline,
			@Nullable RedisServerProcess redis, String... properties) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), quota / 60);
				Fleet fleet = Fleet.start(INSTANCES, FleetApplication.class, proxy.url(), deadline,
						withRedis(redis, properties))) {
			if (redis != null) {
				awaitSharedQuota(fleet, redis, proxy, quota, deadline);
			}
			return LoadRun.run(name, fleet, proxy, seconds, quota, deadline);
		}
	}

	private static String[] withRedis(@Nullable RedisServerProcess redis, String[] properties) {
		if (redis == null) {
			return properties;
		}
		String[] all = Arrays.copyOf(properties, properties.length + 2);
		all[properties.length] = "spring.data.redis.host=127.0.0.1";
		all[properties.length + 1] = "spring.data.redis.port=" + redis.port();
		return all;
	}

	/**
	 * The limiter connects to Redis in the background on its first use and keeps the quota in-process until
	 * then, and for {@link RedisQuotaBucket#SKIP_AFTER_FAILURE} after a Redis operation failed or took longer
	 * than its timeout, as the first ones under a sudden load do while their code is cold: a call on each
	 * instance, until Redis has a client for each, then a short load that is not counted, then that pause,
	 * so that the measured load starts on the shared bucket.
	 */
	private static void awaitSharedQuota(Fleet fleet, RedisServerProcess redis, QuotaProxy proxy, int quota,
			Duration deadline) throws IOException, InterruptedException {
		askEach(fleet);
		long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		// the instances' connections, and this one's
		while (connectedClients(redis) < fleet.size() + 1) {
			if (System.nanoTime() > until) {
				throw new IllegalStateException("the instances did not connect to Redis");
			}
			Thread.sleep(50);
		}
		LoadRun.run("warm-up", fleet, proxy, 2, quota, deadline);
		Thread.sleep(RedisQuotaBucket.SKIP_AFTER_FAILURE.toMillis() + 500);
	}

	private static void askEach(Fleet fleet) {
		for (int i = 0; i < fleet.size(); i++) {
			try {
				fleet.questions(i).ask("warm-up");
			}
			catch (ModelArmorException ex) {
				// a 429 of the proxy: the warm-up is about Redis
			}
		}
	}

	private static int connectedClients(RedisServerProcess redis) throws IOException {
		for (String line : redis.command("INFO", "clients").split("\r?\n")) {
			if (line.startsWith("connected_clients:")) {
				return Integer.parseInt(line.substring("connected_clients:".length()).trim());
			}
		}
		throw new IOException("INFO clients has no connected_clients");
	}

	private static OutageRun.Result outage(ModelArmorStandIn standIn, Duration deadline) throws Exception {
		try (QuotaProxy proxy = new QuotaProxy(standIn.url(), Integer.MAX_VALUE);
				Fleet fleet = Fleet.start(INSTANCES, FleetApplication.class, proxy.url(), deadline)) {
			proxy.outage();
			return OutageRun.run(fleet, proxy);
		}
	}

}
