package dev.modelarmor.benchmarks.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * Plays Model Armor's quota in front of the test kit's stand-in: counts every request, answers 429 to those
 * above {@code perSecond} in each one-second window and forwards the others to the stand-in; in an outage it
 * answers 503 to all, forwarding none.
 */
final class QuotaProxy implements AutoCloseable {

	private static final byte[] TOO_MANY = error(429, "RESOURCE_EXHAUSTED", "Quota exceeded");

	private static final byte[] UNAVAILABLE = error(503, "UNAVAILABLE", "The service is currently unavailable");

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "quota-proxy");
		thread.setDaemon(true);
		return thread;
	});

	private final HttpClient client;

	private final String target;

	private final int perSecond;

	private final AtomicLong requests = new AtomicLong();

	private final AtomicLong ok = new AtomicLong();

	private final AtomicLong tooMany = new AtomicLong();

	private long window;

	private int inWindow;

	private volatile boolean outage;

	/** When set, decides each request's answer before the quota does. */
	private volatile @Nullable Rule rule;

	private volatile long ruleStart;

	private final ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();

	/**
	 * What the proxy answers a request while a rule is set.
	 */
	@FunctionalInterface
	interface Rule {

		/**
		 * @param request the request's number since the rule was set, from 0
		 * @param nanos the time since the rule was set
		 * @return the status to answer with, or 0 to forward the request to the stand-in
		 */
		int status(long request, long nanos);

		/**
		 * As {@link #status(long, long)}, knowing the request's path (which names its location).
		 * @param path the request's path
		 * @param request the request's number since the rule was set, from 0
		 * @param nanos the time since the rule was set
		 * @return the status to answer with, or 0 to forward the request to the stand-in
		 */
		default int status(String path, long request, long nanos) {
			return status(request, nanos);
		}

	}

	/**
	 * Starts a proxy on a free loopback port.
	 * @param target the stand-in's base URL
	 * @param perSecond the requests forwarded in each one-second window, the quota per minute over 60
	 */
	QuotaProxy(String target, int perSecond) throws IOException {
		this.target = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
		this.perSecond = perSecond;
		this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(this.executor).build();
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** From now on, 503 to every request. */
	void outage() {
		this.outage = true;
	}

	/** From now on, each request answered as the rule says; its clock and count start now. */
	void answer(Rule rule) {
		this.arrivals.clear();
		this.ruleStart = System.nanoTime();
		this.ruleRequests.set(0);
		this.rule = rule;
	}

	/** The arrival of every request since the rule was set, in nanoseconds after it was. */
	List<Long> arrivals() {
		return List.copyOf(this.arrivals);
	}

	private final AtomicLong ruleRequests = new AtomicLong();

	/** Forgets what was counted so far. */
	void startCounting() {
		this.requests.set(0);
		this.ok.set(0);
		this.tooMany.set(0);
	}

	long requests() {
		return this.requests.get();
	}

	long ok() {
		return this.ok.get();
	}

	long tooMany() {
		return this.tooMany.get();
	}

	private synchronized boolean admit() {
		long second = System.nanoTime() / 1_000_000_000L;
		if (second != this.window) {
			this.window = second;
			this.inWindow = 0;
		}
		return ++this.inWindow <= this.perSecond;
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			this.requests.incrementAndGet();
			Rule rule = this.rule;
			if (rule != null) {
				long nanos = System.nanoTime() - this.ruleStart;
				this.arrivals.add(nanos);
				int status = rule.status(exchange.getRequestURI().getPath(), this.ruleRequests.getAndIncrement(), nanos);
				if (status != 0) {
					send(exchange, status, "application/json", error(status, "UNAVAILABLE", "Failing on purpose"));
					return;
				}
			}
			if (this.outage) {
				send(exchange, 503, "application/json", UNAVAILABLE);
				return;
			}
			if (!admit()) {
				this.tooMany.incrementAndGet();
				send(exchange, 429, "application/json", TOO_MANY);
				return;
			}
			HttpResponse<byte[]> response = forward(exchange, body);
			if (response.statusCode() == 200) {
				this.ok.incrementAndGet();
			}
			send(exchange, response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
					response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.target + exchange.getRequestURI()))
			.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
		String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

	private static void send(HttpExchange exchange, int status, @Nullable String contentType, byte[] body) throws IOException {
		if (contentType != null) {
			exchange.getResponseHeaders().set("Content-Type", contentType);
		}
		exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	private static byte[] error(int code, String status, String message) {
		return ("{\"error\": {\"code\": " + code + ", \"message\": \"" + message + "\", \"status\": \"" + status + "\"}}")
			.getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
