package dev.modelarmor.benchmarks.jmh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * The per-call comparison of {@link PerCallBenchmark}, interleaved: rounds in which every client runs in
 * turn for the same time on the same threads, medians over rounds compared. On a shared, busy machine
 * JMH's one-benchmark-after-the-other runs drift with the load of the moment; interleaving gives every
 * client the same conditions, so the ratios hold even when the absolute times do not.
 *
 * <p>Besides the three clients of the issue, one row isolates the HTTP layer: the same {@code RestClient}
 * and transport the template uses, posting fixed bytes to a fixed URI, without the template's retry
 * template, JSON and observer.
 *
 * <pre>java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.jmh.InterleavedPerCall [rounds] [threads]</pre>
 */
public final class InterleavedPerCall {

	private static final long ROUND_NANOS = 1_000_000_000L;

	private static final com.sun.management.OperatingSystemMXBean CPU = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
		.getOperatingSystemMXBean();

	/** Failed calls by client and failure: a benchmark that hides its errors measures something else. */
	private static final Map<String, LongAdder> failures = new java.util.concurrent.ConcurrentSkipListMap<>();

	private InterleavedPerCall() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 15;
		int threads = (args.length > 1) ? Integer.parseInt(args[1]) : 1;
		PerCallBenchmark bench = new PerCallBenchmark();
		bench.start();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			Map<String, Callable<Object>> clients = new LinkedHashMap<>();
			clients.put("JDK `HttpClient`, `byte[]` body (baseline)", bench::raw);
			clients.put("`RestClient` over the starter's transport, fixed URI and bytes", bench::restClient);
			clients.put("`ModelArmorTemplate.sanitizeUserPrompt`", bench::template);
			clients.put("`ModelArmorTemplate.sanitizeUserPromptAsync(..).join()`", bench::templateAsync);
			clients.put("official `google-cloud-modelarmor` over HTTP/JSON", bench::official);
			Map<String, List<Double>> microsPerCall = new LinkedHashMap<>();
			Map<String, List<Double>> cpuMicrosPerCall = new LinkedHashMap<>();
			clients.keySet().forEach((name) -> microsPerCall.put(name, new ArrayList<>()));
			clients.keySet().forEach((name) -> cpuMicrosPerCall.put(name, new ArrayList<>()));
			for (int round = -3; round < rounds; round++) { // three rounds of warm-up
				for (Map.Entry<String, Callable<Object>> client : clients.entrySet()) {
					double[] micros = run(pool, threads, client.getKey(), client.getValue());
					if (round >= 0) {
						microsPerCall.get(client.getKey()).add(micros[0]);
						cpuMicrosPerCall.get(client.getKey()).add(micros[1]);
					}
				}
			}
			double raw = median(microsPerCall.values().iterator().next());
			double template = median(microsPerCall.get("`ModelArmorTemplate.sanitizeUserPrompt`"));
			double rawCpu = median(cpuMicrosPerCall.values().iterator().next());
			System.out.printf(Locale.ROOT, "%d rounds of %d s per client, interleaved, %d thread(s); µs per call%n",
					rounds, ROUND_NANOS / 1_000_000_000L, threads);
			System.out.println("| client | median µs | fastest round µs | / raw | / template | CPU µs (process) | CPU / raw |");
			System.out.println("|---|---:|---:|---:|---:|---:|---:|");
			for (Map.Entry<String, List<Double>> entry : microsPerCall.entrySet()) {
				double median = median(entry.getValue());
				double cpu = median(cpuMicrosPerCall.get(entry.getKey()));
				System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f | %.2f | %,.0f | %.2f |%n", entry.getKey(),
						median, entry.getValue().stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
						median / raw, median / template, cpu, cpu / rawCpu);
			}
			failures.forEach((failure, count) -> System.out.printf(Locale.ROOT, "failed %d times: %s%n", count.sum(), failure));
		}
		finally {
			pool.shutdownNow();
			bench.stop();
		}
	}

	/**
	 * Runs a client on every thread for one round: the time per call as one caller sees it, and the process's
	 * CPU per call (the in-process loopback server's included, the same for every client).
	 */
	private static double[] run(ExecutorService pool, int threads, String name, Callable<Object> client)
			throws Exception {
		LongAdder calls = new LongAdder();
		long cpuBefore = CPU.getProcessCpuTime();
		long end = System.nanoTime() + ROUND_NANOS;
		List<Future<?>> running = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			running.add(pool.submit(() -> {
				while (System.nanoTime() < end) {
					try {
						client.call();
					}
					catch (Exception ex) {
						failures.computeIfAbsent(name + ": " + ex, (key) -> new LongAdder()).increment();
					}
					calls.increment();
				}
				return null;
			}));
		}
		for (Future<?> thread : running) {
			thread.get();
		}
		long cpu = CPU.getProcessCpuTime() - cpuBefore;
		return new double[] { ROUND_NANOS / 1_000.0 * threads / calls.sum(), cpu / 1_000.0 / calls.sum() };
	}

	private static double median(List<Double> samples) {
		double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

}
