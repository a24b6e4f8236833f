package dev.modelarmor.benchmarks.jmh;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The per-call comparison of {@link PerCallBenchmark} on one thread, interleaved: rounds of a few hundred
 * calls of each client in turn, every call timed, medians compared. On a shared, busy machine JMH's
 * one-benchmark-after-the-other runs drift with the load of the moment; interleaving gives every client the
 * same conditions, so the ratios hold even when the absolute times do not.
 *
 * <pre>java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.jmh.InterleavedPerCall [rounds]</pre>
 */
public final class InterleavedPerCall {

	private InterleavedPerCall() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 20;
		int perRound = 200;
		PerCallBenchmark bench = new PerCallBenchmark();
		bench.start();
		HttpClient streamedClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		try {
			Map<String, Callable<Object>> clients = new LinkedHashMap<>();
			clients.put("raw (byte[] body)", bench::raw);
			clients.put("raw (streamed body, no length)", () -> {
				HttpRequest request = HttpRequest.newBuilder(bench.rawUri())
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bench.rawBody())))
					.build();
				return streamedClient.send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
			});
			clients.put("ModelArmorTemplate", bench::template);
			clients.put("official client (HTTP/JSON)", bench::official);
			Map<String, long[]> times = new LinkedHashMap<>();
			clients.keySet().forEach((name) -> times.put(name, new long[rounds * perRound]));
			for (int round = -3; round < rounds; round++) { // three rounds of warm-up
				for (Map.Entry<String, Callable<Object>> client : clients.entrySet()) {
					long[] samples = times.get(client.getKey());
					for (int i = 0; i < perRound; i++) {
						long start = System.nanoTime();
						client.getValue().call();
						long took = System.nanoTime() - start;
						if (round >= 0) {
							samples[round * perRound + i] = took;
						}
					}
				}
			}
			double rawMedian = percentile(times.get("raw (byte[] body)"), 0.5);
			double templateMedian = percentile(times.get("ModelArmorTemplate"), 0.5);
			System.out.printf(Locale.ROOT, "%d rounds × %d calls per client, interleaved, 1 thread%n", rounds, perRound);
			System.out.println("| client | median µs | p90 µs | median / raw | median / template |");
			System.out.println("|---|---:|---:|---:|---:|");
			for (Map.Entry<String, long[]> entry : times.entrySet()) {
				double median = percentile(entry.getValue(), 0.5);
				System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.2f |%n", entry.getKey(), median / 1000,
						percentile(entry.getValue(), 0.9) / 1000, median / rawMedian, median / templateMedian);
			}
		}
		finally {
			bench.stop();
		}
	}

	private static double percentile(long[] samples, double p) {
		long[] sorted = samples.clone();
		Arrays.sort(sorted);
		return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
	}

}
