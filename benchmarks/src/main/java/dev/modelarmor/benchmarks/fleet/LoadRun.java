package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.resilience.RedisQuotaBucket;

/**
 * Three times the quota, offered at a steady rate to the instances of a fleet in turn, each call a guarded
 * method that screens its prompt; the proxy counts what reaches Model Armor while the load lasts.
 */
final class LoadRun {

	private LoadRun() {
	}

	/**
	 * Offers the load, then waits for the last call to end.
	 * @param name the configuration, as the table names it
	 * @param fleet the instances
	 * @param proxy Model Armor's quota in front of the stand-in
	 * @param seconds how long the load lasts
	 * @param quota the quota per minute; three times it is offered
	 * @param deadline the calls' retry deadline, to bound the wait for the last ones
	 * @return the row of the table
	 */
	static Row run(String name, Fleet fleet, QuotaProxy proxy, int seconds, int quota, Duration deadline)
			throws InterruptedException {
		ConcurrentLinkedQueue<Long> times = new ConcurrentLinkedQueue<>();
		AtomicInteger failedClosed = new AtomicInteger();
		AtomicInteger unexpected = new AtomicInteger();
		ExecutorService callers = Executors.newCachedThreadPool();
		long perCallNanos = 1_000_000_000L * 60 / (quota * 3L);
		int calls = 0;
		WarningCounter quotaFallbacks = new WarningCounter(RedisQuotaBucket.class);
		proxy.startCounting();
		long start = System.nanoTime();
		for (long next = start; next < start + TimeUnit.SECONDS.toNanos(seconds); next += perCallNanos) {
			long wait = next - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			Questions instance = fleet.questions(calls++ % fleet.size());
			callers.execute(() -> {
				long began = System.nanoTime();
				try {
					instance.ask("When does the train to Lyon leave?");
				}
				catch (ModelArmorException ex) {
					failedClosed.incrementAndGet();
				}
				catch (RuntimeException ex) {
					unexpected.incrementAndGet();
				}
				times.add(System.nanoTime() - began);
			});
		}
		long loadNanos = System.nanoTime() - start;
		long reached = proxy.requests();
		long ok = proxy.ok();
		long tooMany = proxy.tooMany();
		callers.shutdown();
		if (!callers.awaitTermination(deadline.toSeconds() + 30, TimeUnit.SECONDS)) {
			callers.shutdownNow();
		}
		quotaFallbacks.close();
		return new Row(name, calls, reached * 60e9 / loadNanos, quota, ok, tooMany, failedClosed.get(),
				unexpected.get(), quotaFallbacks.count(), new Latencies(times));
	}

	/**
	 * One configuration's figures; Model Armor's counts are those of the load's duration.
	 * @param name the configuration
	 * @param calls the guarded calls offered
	 * @param perMinute the requests that reached Model Armor, per minute
	 * @param quota the quota per minute
	 * @param ok the requests answered 200
	 * @param tooMany the requests answered 429
	 * @param failedClosed the calls that ended as not screened
	 * @param unexpected the calls that ended with anything else (none expected)
	 * @param quotaFallbacks the times a shared quota limiter fell back to its in-process bucket
	 * @param callers the time each call took its caller
	 */
	record Row(String name, int calls, double perMinute, int quota, long ok, long tooMany, int failedClosed,
			int unexpected, int quotaFallbacks, Latencies callers) {

		double timesQuota() {
			return this.perMinute / this.quota;
		}

		static String header() {
			return "| configuration | calls | load reaching Model Armor (/min) | x quota | 200s | 429s | failed closed "
					+ "| caller p50 | caller p99 |\n|---|---|---|---|---|---|---|---|---|";
		}

		String markdown() {
			return String.format(Locale.ROOT, "| %s | %d | %.0f | %.2f | %d | %d | %d | %s | %s |", this.name,
					this.calls, this.perMinute, timesQuota(), this.ok, this.tooMany, this.failedClosed,
					Latencies.millis(this.callers.percentile(50)), Latencies.millis(this.callers.percentile(99)));
		}

	}

}
