package dev.modelarmor.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The HTTP server of a {@link ModelArmorStandIn}: the JDK's server on a free port of the loopback address,
 * its requests on daemon threads named {@code modelarmor-stand-in-N}, which {@link #stop()} ends.
 */
final class StandInServer {

	private static final String LOOPBACK = "127.0.0.1";

	private static final AtomicInteger threads = new AtomicInteger();

	private final HttpServer server;

	private final ExecutorService executor;

	private StandInServer(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	/**
	 * Starts a server that hands every request to the handler.
	 * @param handler the handler
	 * @return the running server
	 * @throws UncheckedIOException when no server socket could be opened
	 */
	static StandInServer start(HttpHandler handler) {
		ExecutorService executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "modelarmor-stand-in-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(LOOPBACK, 0), 64);
			server.setExecutor(executor);
			server.createContext("/", handler);
			server.start();
			return new StandInServer(server, executor);
		}
		catch (IOException ex) {
			executor.shutdownNow();
			throw new UncheckedIOException("The Model Armor stand-in could not start", ex);
		}
	}

	/**
	 * The base URL of the server.
	 * @return e.g. {@code http://127.0.0.1:41234}
	 */
	String url() {
		return "http://" + LOOPBACK + ":" + this.server.getAddress().getPort();
	}

	/** Stops the server at once and ends its threads; the port is free again. */
	void stop() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
