package dev.modelarmor.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.test.FaultQueue.QueuedFault;
import org.jspecify.annotations.Nullable;

/**
 * Answers the requests that reach the stand-in: records each sanitize request, then answers it with the
 * next queued fault, else with the newest programmed rule that applies, else with {@link StandInRules}.
 * Never logs; never reads more of a body than {@link #MAX_BODY_BYTES}.
 */
final class StandInHandler implements HttpHandler {

	/** The largest request body read: a 4 MiB document, base64-encoded in JSON, fits with room to spare. */
	static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

	/** The most requests remembered: the oldest are forgotten first. */
	static final int MAX_RECEIVED = 10_000;

	/** The longest a stalled request is held when nothing releases it earlier. */
	private static final Duration MAX_STALL = Duration.ofMinutes(10);

	private final Deque<ReceivedRequest> received = new ArrayDeque<>();

	private final List<VerdictRule> rules = new CopyOnWriteArrayList<>();

	private final FaultQueue faults = new FaultQueue();

	private final StandInTemplates templates = new StandInTemplates();

	/** Released by {@link #reset()} and on close: held (delayed and stalled) requests end at once. */
	private volatile CountDownLatch release = new CountDownLatch(1);

	FaultQueue faults() {
		return this.faults;
	}

	StandInTemplates templates() {
		return this.templates;
	}

	void addRule(VerdictRule rule) {
		this.rules.add(0, rule);
	}

	List<ReceivedRequest> received() {
		synchronized (this.received) {
			return List.copyOf(this.received);
		}
	}

	/**
	 * The text of every request of one operation received since the last reset, oldest first.
	 * @param operation the operation
	 * @return an immutable list
	 */
	List<String> receivedTexts(ReceivedRequest.Operation operation) {
		List<String> texts = new ArrayList<>();
		for (ReceivedRequest request : received()) {
			if (request.operation() == operation) {
				texts.add(request.text());
			}
		}
		return List.copyOf(texts);
	}

	/**
	 * Forgets rules, faults and requests, and ends the requests held by a delay or a stall.
	 */
	void reset() {
		this.rules.clear();
		this.faults.clear();
		this.templates.reset();
		synchronized (this.received) {
			this.received.clear();
		}
		releaseHeld();
	}

	void releaseHeld() {
		CountDownLatch held = this.release;
		this.release = new CountDownLatch(1);
		held.countDown();
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = readBody(exchange);
			if (body == null) {
				error(exchange, 413, "Request payload size exceeds the limit: " + MAX_BODY_BYTES + " bytes.");
				return;
			}
			String method = exchange.getRequestMethod();
			String uriPath = exchange.getRequestURI().getPath();
			Matcher read = StandInTemplates.readPath(method, uriPath);
			if (read != null) {
				answerRead(exchange, read);
				return;
			}
			Matcher path = SanitizeRequests.sanitizePath(method, uriPath);
			if (path == null) {
				error(exchange, 404, GoogleErrorJson.message(404));
				return;
			}
			ReceivedRequest request;
			try {
				request = SanitizeRequests.read(path, body);
			}
			catch (IllegalArgumentException ex) {
				error(exchange, 400, String.valueOf(ex.getMessage()));
				return;
			}
			record(request);
			if (!this.templates.exists(request.template())) {
				error(exchange, 404, StandInTemplates.NOT_FOUND);
				return;
			}
			QueuedFault fault = this.faults.next();
			if (fault != null && !answerFault(exchange, fault)) {
				return;
			}
			send(exchange, 200, "application/json; charset=UTF-8", SanitizeResponseJson.bytes(verdict(request)));
		}
	}

	private void answerRead(HttpExchange exchange, Matcher read) throws IOException {
		if (this.templates.exists(read.group(3))) {
			send(exchange, 200, "application/json; charset=UTF-8", StandInTemplates.json(read));
		}
		else {
			error(exchange, 404, StandInTemplates.NOT_FOUND);
		}
	}

	private void record(ReceivedRequest request) {
		synchronized (this.received) {
			if (this.received.size() == MAX_RECEIVED) {
				this.received.removeFirst();
			}
			this.received.addLast(request);
		}
	}

	/**
	 * Answers a fault.
	 * @return whether the request still gets its normal answer (after a delay)
	 */
	private boolean answerFault(HttpExchange exchange, QueuedFault fault) throws IOException {
		switch (fault.kind) {
			case STATUS -> {
				if (fault.retryAfter != null) {
					long seconds = (fault.retryAfter.toMillis() + 999) / 1000;
					exchange.getResponseHeaders().set("Retry-After", Long.toString(seconds));
				}
				String body = fault.body;
				if (body != null) {
					send(exchange, fault.status, String.valueOf(fault.contentType),
							body.getBytes(StandardCharsets.UTF_8));
				}
				else {
					error(exchange, fault.status, GoogleErrorJson.message(fault.status));
				}
				return false;
			}
			case DELAY -> {
				// A reset ends the wait early; the request is then answered at once.
				hold(fault.delay);
				return true;
			}
			default -> {
				// Closing the exchange unanswered closes the connection: the client sees an I/O failure, if it
				// is still waiting.
				hold(MAX_STALL);
				return false;
			}
		}
	}

	private void hold(Duration duration) {
		try {
			this.release.await(duration.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private SanitizationResult verdict(ReceivedRequest request) {
		for (VerdictRule rule : this.rules) {
			if (rule.appliesTo(request)) {
				return rule.result();
			}
		}
		return StandInRules.screen(request.text());
	}

	private static byte @Nullable [] readBody(HttpExchange exchange) throws IOException {
		try (InputStream in = exchange.getRequestBody()) {
			byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
			return (body.length > MAX_BODY_BYTES) ? null : body;
		}
	}

	private static void error(HttpExchange exchange, int status, String message) throws IOException {
		send(exchange, status, "application/json; charset=UTF-8", GoogleErrorJson.bytes(status, message));
	}

	private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", contentType);
		exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
