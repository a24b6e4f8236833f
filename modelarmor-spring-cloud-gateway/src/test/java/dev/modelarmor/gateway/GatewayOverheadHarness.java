package dev.modelarmor.gateway;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.sun.management.OperatingSystemMXBean;
import dev.modelarmor.test.ModelArmorStandIn;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Not a test: a harness, run by hand ({@code main}), that measures in one run what the filter adds to the
 * same route: a request/answer exchange with and without it (p50, p99), against the round trips to Model
 * Armor it makes; process CPU per exchange; heap per stream in flight; a streamed answer's first byte.
 * The model and the Model Armor stand-in run on loopback in the same process.
 */
public final class GatewayOverheadHarness {

	private static final int WARMUP = 300;

	private static final int RUNS = 1000;

	private static final int STREAMS = 200;

	public static void main(String[] args) throws Exception {
		// the JDK's HTTP server otherwise waits on Nagle's algorithm for its small chunked writes (some 40 ms)
		System.setProperty("sun.net.httpserver.nodelay", "true");
		FakeModel model = new FakeModel();
		ModelArmorStandIn standIn = ModelArmorStandIn.start();
		String answer = "{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
				+ "\"message\":{\"role\":\"assistant\",\"content\":\"" + "The forecast is sunny. ".repeat(20)
				+ "\"},\"finish_reason\":\"stop\"}]}";
		model.answer(FakeModel.json(answer));
		String routes = "--spring.cloud.gateway.server.webflux.routes";
		ConfigurableApplicationContext gateway = new SpringApplication(GatewayTestApplication.class).run(
				"--server.port=0", "--spring.main.web-application-type=reactive", "--logging.level.root=WARN",
				"--modelarmor.endpoint=" + standIn.url(), "--modelarmor.credentials.enabled=false",
				"--modelarmor.project-id=p", "--modelarmor.location=us-central1", "--modelarmor.template-id=t",
				routes + "[0].id=plain", routes + "[0].uri=" + model.url(), routes + "[0].predicates[0]=Path=/plain/**",
				routes + "[0].filters[0]=StripPrefix=1", routes + "[1].id=screened", routes + "[1].uri=" + model.url(),
				routes + "[1].predicates[0]=Path=/screened/**", routes + "[1].filters[0]=StripPrefix=1",
				routes + "[1].filters[1]=ModelArmor=openai");
		int port = Integer.parseInt(gateway.getEnvironment().getProperty("local.server.port", "0"));
		HttpClient http = HttpClient.newHttpClient();
		String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"What is the forecast for tomorrow?\"}]}";
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		System.out.printf("cores %d, load average %.2f%n", os.getAvailableProcessors(), os.getSystemLoadAverage());
		for (int i = 0; i < WARMUP; i++) {
			exchange(http, port, "/plain", body);
			exchange(http, port, "/screened", body);
			roundTrip(http, standIn);
		}
		long[] plain = new long[RUNS];
		long[] screened = new long[RUNS];
		long[] modelArmor = new long[RUNS];
		long plainCpu = 0;
		long screenedCpu = 0;
		int callsBefore = standIn.received().size();
		for (int i = 0; i < RUNS; i++) {
			long cpu = os.getProcessCpuTime();
			plain[i] = exchange(http, port, "/plain", body);
			long between = os.getProcessCpuTime();
			screened[i] = exchange(http, port, "/screened", body);
			long after = os.getProcessCpuTime();
			modelArmor[i] = roundTrip(http, standIn);
			plainCpu += between - cpu;
			screenedCpu += after - between;
		}
		int calls = standIn.received().size() - callsBefore - RUNS;
		Arrays.sort(plain);
		Arrays.sort(screened);
		Arrays.sort(modelArmor);
		System.out.printf("exchange without the filter: p50 %.2f ms, p99 %.2f ms%n", ms(plain[RUNS / 2]), ms(plain[RUNS * 99 / 100]));
		System.out.printf("exchange with the filter:    p50 %.2f ms, p99 %.2f ms%n", ms(screened[RUNS / 2]), ms(screened[RUNS * 99 / 100]));
		System.out.printf("added:                       p50 %.2f ms, p99 %.2f ms%n", ms(screened[RUNS / 2] - plain[RUNS / 2]),
				ms(screened[RUNS * 99 / 100] - plain[RUNS * 99 / 100]));
		System.out.printf("Model Armor calls per exchange %.2f; one stand-in round trip: p50 %.2f ms, p99 %.2f ms%n",
				calls / (double) RUNS, ms(modelArmor[RUNS / 2]), ms(modelArmor[RUNS * 99 / 100]));
		System.out.printf("process CPU per exchange: without %.3f ms, with %.3f ms (%.2fx; model and stand-in in the process)%n",
				plainCpu / 1e6 / RUNS, screenedCpu / 1e6 / RUNS, screenedCpu / (double) plainCpu);

		// a streamed answer: the model sends 300 bytes of text at once, then stalls before the rest
		List<String> first = new ArrayList<>();
		String sentence = "The forecast is sunny with a light breeze. ";
		for (String word : sentence.repeat(8).split("(?<= )")) {
			first.add("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
					+ word + "\"},\"finish_reason\":null}]}\n\n");
		}
		model.answer(new FakeModel.Answer(200, "text/event-stream", List.of(String.join("", first)), null));
		String streamBody = body.replace("{\"model\"", "{\"stream\":true,\"model\"");
		long[] firstByte = new long[50];
		for (int i = 0; i < firstByte.length; i++) {
			firstByte[i] = firstByte(http, port, streamBody);
		}
		Arrays.sort(firstByte);
		System.out.printf("first byte of a streamed answer (model's first 344 bytes at once): p50 %.2f ms, p99 %.2f ms%n",
				ms(firstByte[25]), ms(firstByte[49]));

		// streams in flight: the model's answer never ends; the gateway holds each stream's windows
		FakeModel.Stalling stalling = new FakeModel.Stalling(String.join("", first).substring(0, 150));
		model.answer(stalling.answer());
		System.gc();
		Thread.sleep(500);
		long heapBefore = usedHeap();
		List<CompletableFuture<HttpResponse<InputStream>>> open = new ArrayList<>();
		for (int i = 0; i < STREAMS; i++) {
			open.add(http.sendAsync(post(port, "/screened", streamBody), HttpResponse.BodyHandlers.ofInputStream()));
		}
		stalling.awaitWaiting(STREAMS, Duration.ofSeconds(60));
		Thread.sleep(1000);
		System.gc();
		Thread.sleep(500);
		long heapAfter = usedHeap();
		System.out.printf("heap per stream in flight (%d held by the gateway, model and clients in the process): %.1f KB%n",
				STREAMS, (heapAfter - heapBefore) / 1024.0 / STREAMS);
		stalling.release();
		gateway.close();
		standIn.close();
		model.close();
		System.exit(0);
	}

	private static long usedHeap() {
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

	private static double ms(long nanos) {
		return nanos / 1e6;
	}

	private static HttpRequest post(int port, String prefix, String body) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + prefix + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static long exchange(HttpClient http, int port, String prefix, String body) throws Exception {
		long start = System.nanoTime();
		HttpResponse<String> response = http.send(post(port, prefix, body), HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("HTTP " + response.statusCode());
		}
		return System.nanoTime() - start;
	}

	private static long firstByte(HttpClient http, int port, String body) throws Exception {
		long start = System.nanoTime();
		HttpResponse<InputStream> response = http.send(post(port, "/screened", body),
				HttpResponse.BodyHandlers.ofInputStream());
		try (InputStream in = response.body()) {
			if (in.read() < 0) {
				throw new IllegalStateException("empty stream");
			}
			long first = System.nanoTime() - start;
			in.readAllBytes();
			return first;
		}
	}

	private static long roundTrip(HttpClient http, ModelArmorStandIn standIn) throws Exception {
		String call = "{\"userPromptData\":{\"text\":\"What is the forecast for tomorrow?\"}}";
		long start = System.nanoTime();
		http.send(HttpRequest.newBuilder(URI.create(standIn.url()
				+ "/v1/projects/p/locations/us-central1/templates/t:sanitizeUserPrompt"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(call, StandardCharsets.UTF_8))
			.build(), HttpResponse.BodyHandlers.ofString());
		return System.nanoTime() - start;
	}

}
