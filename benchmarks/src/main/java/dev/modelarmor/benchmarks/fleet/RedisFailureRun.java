package dev.modelarmor.benchmarks.fleet;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import dev.modelarmor.testredis.RedisServerProcess;

/**
 * The verdict cache on a real Redis with Spring Boot's Redis defaults (none of its timeouts set: Lettuce's
 * 60 s command timeout), under a guarded call that screens prompt and answer, each a cache miss: the calls'
 * times with Redis healthy (the baseline, same run), then with Redis failing (stalled or stopped).
 */
final class RedisFailureRun {

	private static final int WARM_UP = 5;

	private static final int BASELINE = 20;

	private static final int FAILING = 10;

	private RedisFailureRun() {
	}

	/**
	 * Starts a Redis and an instance that caches verdicts on it, times calls, fails Redis, times calls.
	 * @param name the failure, as the table names it
	 * @param failure what is done to the running Redis
	 * @param modelArmor the Model Armor the instance calls
	 * @param deadline the calls' retry deadline
	 * @return the row of the table
	 */
	static Row run(String name, Consumer<RedisServerProcess> failure, String modelArmor, Duration deadline)
			throws Exception {
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		try (RedisServerProcess redis = RedisServerProcess.start();
				Fleet instance = Fleet.start(1, CachingFleetApplication.class, modelArmor, deadline,
						"modelarmor.cache.enabled=true", "spring.cache.type=redis",
						"modelarmor.cache.signing-key=" + Base64.getEncoder().encodeToString(key),
						"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port())) {
			Questions questions = instance.questions(0);
			times(questions, "warm-up", WARM_UP);
			List<Long> healthy = times(questions, "healthy", BASELINE);
			failure.accept(redis);
			List<Long> failing = times(questions, "failing", FAILING);
			return new Row(name, new Latencies(healthy).percentile(50), failing);
		}
	}

	/** Times guarded calls of texts never asked before: every screening misses the cache. */
	private static List<Long> times(Questions questions, String label, int count) {
		List<Long> times = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			long began = System.nanoTime();
			questions.askAndScreenTheAnswer("When does the train to Lyon leave? (" + label + " " + i + ")");
			times.add(System.nanoTime() - began);
		}
		return times;
	}

	/**
	 * One failure's figures.
	 * @param name the failure
	 * @param baseline the median time of a call with Redis healthy
	 * @param failing the time of each call after Redis failed, in order
	 */
	record Row(String name, long baseline, List<Long> failing) {

		static String header() {
			return "| Redis, Boot's defaults | call with Redis healthy (median) | added: 1st call | 2nd call | 3rd call "
					+ "| later calls (median / max) |\n|---|---|---|---|---|---|";
		}

		String markdown() {
			Latencies later = new Latencies(this.failing.subList(3, this.failing.size()));
			return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s / %s |", this.name,
					Latencies.fineMillis(this.baseline), added(this.failing.get(0)), added(this.failing.get(1)),
					added(this.failing.get(2)), added(later.percentile(50)), added(later.max()));
		}

		private String added(long nanos) {
			return String.format(Locale.ROOT, "%+.1f ms", (nanos - this.baseline) / 1e6);
		}

	}

}
