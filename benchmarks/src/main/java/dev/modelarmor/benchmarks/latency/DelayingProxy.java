package dev.modelarmor.benchmarks.latency;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Plays a remote Model Armor in front of the test kit's stand-in: every request waits a delay drawn from a
 * log-normal distribution (a median and a tail, as network round trips have) and is then forwarded to the
 * stand-in on loopback. Counts the requests, so that a harness can tell the Model Armor calls of one
 * guarded request.
 */
final class DelayingProxy implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "delaying-proxy");
		thread.setDaemon(true);
		return thread;
	});

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final String target;

	private final double medianMillis;

	private final double sigma;

	private final SplittableRandom random = new SplittableRandom(42);

	private final AtomicInteger requests = new AtomicInteger();

	/**
	 * Starts a proxy.
	 * @param target the stand-in's base URL
	 * @param medianMillis the median delay
	 * @param sigma the log-normal shape: 0 for a fixed delay; 0.3 puts p99 at about twice the median
	 */
	DelayingProxy(String target, double medianMillis, double sigma) throws IOException {
		this.target = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
		this.medianMillis = medianMillis;
		this.sigma = sigma;
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::forward);
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	int requests() {
		return this.requests.get();
	}

	void resetRequests() {
		this.requests.set(0);
	}

	private void forward(HttpExchange exchange) throws IOException {
		try (exchange) {
			this.requests.incrementAndGet();
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			sleep(delayMillis());
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.target + exchange.getRequestURI()))
				.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
			String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
			if (contentType != null) {
				request.header("Content-Type", contentType);
			}
			HttpResponse<byte[]> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			response.headers().firstValue("Content-Type").ifPresent((type) -> exchange.getResponseHeaders().set("Content-Type", type));
			exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(response.body());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private long delayMillis() {
		double gaussian;
		synchronized (this.random) {
			// Box-Muller: SplittableRandom has no nextGaussian on Java 17
			double u1 = 1.0 - this.random.nextDouble();
			double u2 = this.random.nextDouble();
			gaussian = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
		}
		return Math.round(this.medianMillis * Math.exp(this.sigma * gaussian));
	}

	private static void sleep(long millis) throws InterruptedException {
		if (millis > 0) {
			Thread.sleep(millis);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
