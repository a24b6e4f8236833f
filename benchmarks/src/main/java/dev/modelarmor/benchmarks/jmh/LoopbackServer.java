package dev.modelarmor.benchmarks.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

/**
 * One minimal local Model Armor: answers every POST with the same small sanitize answer. The JDK's
 * {@code HttpServer} with {@code sun.net.httpserver.nodelay=true}, without which each call stalls 40 ms
 * on a delayed ACK.
 */
public final class LoopbackServer implements AutoCloseable {

	static {
		// Read once, when the JDK's server configuration class loads: set it before any HttpServer exists.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		// Keep idle connections open while other clients take their turn: by default the server closes
		// them in its own time, and a client that picks one from its pool as it closes fails the call.
		System.setProperty("sun.net.httpserver.idleInterval", "3600");
		System.setProperty("sun.net.httpserver.maxIdleConnections", "1000");
	}

	/** The answer, in the API's JSON shape. */
	public static final byte[] ANSWER = """
			{"sanitizationResult":{"filterMatchState":"NO_MATCH_FOUND","invocationResult":"SUCCESS",\
			"filterResults":{"rai":{"raiFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"NO_MATCH_FOUND"}},\
			"pi_and_jailbreak":{"piAndJailbreakFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"NO_MATCH_FOUND"}}},\
			"sanitizationMetadata":{}}}""".getBytes(StandardCharsets.UTF_8);

	private final HttpServer server;

	private final ExecutorService executor;

	private LoopbackServer(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	/**
	 * Starts a server on a free loopback port.
	 * @return the running server
	 * @throws IOException when it cannot bind
	 */
	public static LoopbackServer start() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
		ExecutorService executor = Executors.newFixedThreadPool(16);
		server.setExecutor(executor);
		server.createContext("/", (exchange) -> {
			try (InputStream in = exchange.getRequestBody()) {
				in.readAllBytes();
			}
			exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
			exchange.sendResponseHeaders(200, ANSWER.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(ANSWER);
			}
		});
		server.start();
		return new LoopbackServer(server, executor);
	}

	/**
	 * The base URL, {@code http://127.0.0.1:port}.
	 * @return the URL
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
