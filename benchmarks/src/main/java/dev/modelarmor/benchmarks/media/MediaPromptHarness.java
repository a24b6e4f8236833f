package dev.modelarmor.benchmarks.media;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import javax.imageio.ImageIO;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;

/**
 * The Model Armor calls and the latency that screening adds to a prompt of text and two images, with each
 * call answered after a fixed delay (a stand-in at 60 ms): the three screened one after another against all
 * at once, as the advisor screens them. Run once; it prints the medians of both and their ratio.
 */
public final class MediaPromptHarness {

	private static final String NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", "
			+ "\"invocationResult\": \"SUCCESS\"}}";

	private MediaPromptHarness() {
	}

	public static void main(String[] args) throws Exception {
		long delay = (args.length > 0) ? Long.parseLong(args[0]) : 60;
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 30;
		AtomicInteger calls = new AtomicInteger();
		ExecutorService serverThreads = Executors.newFixedThreadPool(16);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.setExecutor(serverThreads);
		server.createContext("/", (exchange) -> answer(exchange, delay, calls));
		server.start();
		String url = "http://127.0.0.1:" + server.getAddress().getPort();
		try (ModelArmorTemplate client = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(url))
			.projectId("p")
			.location("l")
			.templateId("t")
			.build(); ModelArmorScreening screening = ModelArmorScreening.builder(client).build()) {
			List<ScreeningRequest> prompt = List.of(ScreeningRequest.prompt("harness", "What is in these pictures?"),
					ScreeningRequest.prompt("harness", DataItem.image(png(0xff0000))),
					ScreeningRequest.prompt("harness", DataItem.image(png(0x0000ff))));
			for (int i = 0; i < 5; i++) {
				serial(screening, prompt);
				parallel(screening, prompt);
			}
			calls.set(0);
			long[] serial = new long[rounds];
			long[] parallel = new long[rounds];
			for (int i = 0; i < rounds; i++) {
				serial[i] = serial(screening, prompt);
				parallel[i] = parallel(screening, prompt);
			}
			long serialMedian = median(serial);
			long parallelMedian = median(parallel);
			System.out.printf("text + 2 images, %d ms per Model Armor call, %d rounds each%n", delay, rounds);
			System.out.printf("Model Armor calls per prompt: %.1f (serial and parallel alike)%n",
					calls.get() / (2.0 * rounds));
			System.out.printf("serial:   median %.1f ms added%n", serialMedian / 1e6);
			System.out.printf("parallel: median %.1f ms added%n", parallelMedian / 1e6);
			System.out.printf("parallel / serial: %.2f%n", (double) parallelMedian / serialMedian);
		}
		finally {
			server.stop(0);
			serverThreads.shutdownNow();
		}
	}

	private static long serial(ModelArmorScreening screening, List<ScreeningRequest> prompt) {
		long start = System.nanoTime();
		for (ScreeningRequest part : prompt) {
			require(screening.screen(part));
		}
		return System.nanoTime() - start;
	}

	private static long parallel(ModelArmorScreening screening, List<ScreeningRequest> prompt) {
		long start = System.nanoTime();
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>();
		for (ScreeningRequest part : prompt) {
			decisions.add(screening.screenAsync(part));
		}
		decisions.forEach((decision) -> require(ModelArmorScreening.await(decision)));
		return System.nanoTime() - start;
	}

	private static void require(ScreeningDecision decision) {
		if (decision != ScreeningDecision.PASS) {
			throw new IllegalStateException("expected a pass, got " + decision);
		}
	}

	private static void answer(HttpExchange exchange, long delay, AtomicInteger calls) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody()) {
			in.readAllBytes();
			calls.incrementAndGet();
			Thread.sleep(delay);
			byte[] body = NO_MATCH.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static byte[] png(int rgb) throws IOException {
		BufferedImage image = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
		image.setRGB(1, 1, rgb);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ImageIO.write(image, "png", out);
		return out.toByteArray();
	}

	private static long median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

}
