package dev.modelarmor.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A model on loopback, answering every request with what a test programs: a status, a content type and
 * the body in chunks, each written and flushed on its own (so a stream's events reach the gateway in the
 * network chunks the test chooses). It records what it received.
 */
final class FakeModel implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private volatile Answer answer = json("{}");

	FakeModel() {
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	void answer(Answer answer) {
		this.answer = answer;
	}

	List<Received> received() {
		return this.received;
	}

	void reset() {
		this.received.clear();
		this.answer = json("{}");
	}

	static Answer json(String body) {
		return new Answer(200, "application/json", List.of(body), null, null);
	}

	static Answer stream(List<String> chunks) {
		return new Answer(200, "text/event-stream", chunks, null, null);
	}

	private void handle(HttpExchange exchange) throws IOException {
		byte[] body = exchange.getRequestBody().readAllBytes();
		this.received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
				new String(body, StandardCharsets.UTF_8), exchange.getRequestHeaders().getFirst("Accept-Encoding")));
		Answer answer = this.answer;
		exchange.getResponseHeaders().set("Content-Type", answer.contentType());
		if (answer.contentEncoding() != null) {
			exchange.getResponseHeaders().set("Content-Encoding", answer.contentEncoding());
		}
		exchange.sendResponseHeaders(answer.status(), 0);
		try (OutputStream out = exchange.getResponseBody()) {
			for (String chunk : answer.chunks()) {
				out.write(chunk.getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
			Stalling stalling = answer.stalling();
			if (stalling != null) {
				stalling.hold();
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	record Answer(int status, String contentType, List<String> chunks, String contentEncoding, Stalling stalling) {

		Answer(int status, String contentType, List<String> chunks, String contentEncoding) {
			this(status, contentType, chunks, contentEncoding, null);
		}

	}

	/** A stream that sends its first bytes, then stalls until released. */
	static final class Stalling {

		private final String first;

		private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

		private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();

		Stalling(String first) {
			this.first = first;
		}

		Answer answer() {
			return new Answer(200, "text/event-stream", List.of(this.first), null, this);
		}

		void hold() {
			this.waiting.incrementAndGet();
			try {
				this.released.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		void awaitWaiting(int count, java.time.Duration timeout) throws InterruptedException {
			long end = System.nanoTime() + timeout.toNanos();
			while (this.waiting.get() < count && System.nanoTime() < end) {
				Thread.sleep(50);
			}
		}

		void release() {
			this.released.countDown();
		}

	}

	record Received(String method, String uri, String body, String acceptEncoding) {
	}

}
