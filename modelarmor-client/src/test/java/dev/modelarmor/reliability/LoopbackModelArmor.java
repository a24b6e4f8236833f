package dev.modelarmor.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for Model Armor on loopback, on the JDK's own {@link HttpServer}, for tests that push many
 * calls through the real HTTP stack. It answers {@code POST …:sanitizeUserPrompt} at random, from a seeded
 * {@link SplittableRandom}: a Model Armor answer (200), Google's error body with 503, or silence (the
 * exchange is held without an answer until the client gives up or the server stops).
 *
 * <p>The 200 answer carries the prompt's call number in its de-identified text, so that a test can tell
 * that each call got its own answer and not another thread's.
 *
 * <p>It counts what it did: requests received, answers served by status, silences, exchanges in flight,
 * and the client connections it saw (distinct remote addresses).
 */
final class LoopbackModelArmor implements AutoCloseable {

	static {
		// Read once, when the JDK server's configuration class loads: set it before the first server exists.
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	private static final Pattern CALL_NUMBER = Pattern.compile("\"text\"\\s*:\\s*\"[^\"]*?#(\\d+)\"");

	static final String UNAVAILABLE = """
			{"error": {"code": 503, "message": "The service is currently unavailable.", "status": "UNAVAILABLE"}}""";

	/**
	 * What the server does with requests.
	 *
	 * @param seed seeds the random choices
	 * @param unavailableRate the share of requests answered 503
	 * @param silenceRate the share of requests not answered
	 * @param silenceMillis how long an unanswered request holds its handler thread before its connection is
	 * closed; keep it short, or silences use up the handler threads and every request after them waits
	 * @param maxLatencyMillis answers (200 and 503) wait a random time in {@code [0, max]} first
	 * @param threads the handler threads
	 */
	record Behaviour(long seed, double unavailableRate, double silenceRate, int silenceMillis, int maxLatencyMillis,
			int threads) {
	}

	private final Behaviour behaviour;

	private final SplittableRandom random;

	private final HttpServer server;

	private final ExecutorService handlers;

	private final AtomicLong received = new AtomicLong();

	private final AtomicLong served200 = new AtomicLong();

	private final AtomicLong served503 = new AtomicLong();

	private final AtomicLong silences = new AtomicLong();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final Set<String> connections = ConcurrentHashMap.newKeySet();

	private LoopbackModelArmor(Behaviour behaviour) throws IOException {
		this.behaviour = behaviour;
		this.random = new SplittableRandom(behaviour.seed());
		AtomicInteger threadNumber = new AtomicInteger();
		this.handlers = Executors.newFixedThreadPool(behaviour.threads(), (task) -> {
			Thread thread = new Thread(task, "loopback-model-armor-" + threadNumber.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
		this.server.setExecutor(this.handlers);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	static LoopbackModelArmor start(Behaviour behaviour) throws IOException {
		return new LoopbackModelArmor(behaviour);
	}

	String url() {
		return "http://127.0.0.1:" + port();
	}

	int port() {
		return this.server.getAddress().getPort();
	}

	long received() {
		return this.received.get();
	}

	long served200() {
		return this.served200.get();
	}

	long served503() {
		return this.served503.get();
	}

	long answersServed() {
		return this.served200.get() + this.served503.get();
	}

	long silences() {
		return this.silences.get();
	}

	int inFlight() {
		return this.inFlight.get();
	}

	/** The client connections seen so far: distinct remote address and port pairs. */
	int connectionsSeen() {
		return this.connections.size();
	}

	/**
	 * The TCP connections to this server's port that are open right now, on the server's side, read from
	 * {@code /proc/net/tcp}.
	 * @return the count, or -1 where {@code /proc/net/tcp} does not exist (not Linux) or does not list
	 * this server's listening socket (a sandboxed kernel)
	 */
	int establishedConnections() throws IOException {
		Path table = Path.of("/proc/net/tcp");
		if (!Files.isReadable(table)) {
			return -1;
		}
		String localPort = String.format(Locale.ROOT, ":%04X", port());
		List<String> rows = Files.readAllLines(table);
		int established = 0;
		boolean listening = false;
		for (String row : rows.subList(1, rows.size())) {
			String[] fields = row.trim().split("\\s+");
			// local_address is field 1, st (state) is field 3: 01 is ESTABLISHED, 0A is LISTEN.
			if (fields.length > 3 && fields[1].endsWith(localPort)) {
				established += fields[3].equals("01") ? 1 : 0;
				listening |= fields[3].equals("0A");
			}
		}
		// A sandboxed kernel may show a partial table: without our own listening socket it tells nothing.
		return listening ? established : -1;
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.inFlight.incrementAndGet();
		try (exchange) {
			this.received.incrementAndGet();
			this.connections.add(String.valueOf(exchange.getRemoteAddress()));
			byte[] request;
			try (InputStream body = exchange.getRequestBody()) {
				request = body.readAllBytes();
			}
			if (!"POST".equals(exchange.getRequestMethod())
					|| !exchange.getRequestURI().getPath().endsWith(":sanitizeUserPrompt")) {
				answer(exchange, 404, "{\"error\": {\"code\": 404, \"message\": \"Not found\", \"status\": \"NOT_FOUND\"}}");
				return;
			}
			double draw;
			int latency;
			synchronized (this.random) {
				draw = this.random.nextDouble();
				latency = (this.behaviour.maxLatencyMillis() > 0) ? this.random.nextInt(this.behaviour.maxLatencyMillis() + 1) : 0;
			}
			if (draw < this.behaviour.silenceRate()) {
				this.silences.incrementAndGet();
				sleep(this.behaviour.silenceMillis());
				return; // closing the exchange unanswered closes the connection
			}
			sleep(latency);
			if (draw < this.behaviour.silenceRate() + this.behaviour.unavailableRate()) {
				// Counted before the answer leaves: a client can never have seen an answer not yet counted.
				this.served503.incrementAndGet();
				answer(exchange, 503, UNAVAILABLE);
			}
			else {
				this.served200.incrementAndGet();
				answer(exchange, 200, sanitizeAnswer(callNumber(request)));
			}
		}
		finally {
			this.inFlight.decrementAndGet();
		}
	}

	/** The number after {@code #} at the end of the prompt's text, or -1. */
	static long callNumber(byte[] request) {
		Matcher matcher = CALL_NUMBER.matcher(new String(request, StandardCharsets.UTF_8));
		return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
	}

	/** The de-identified text that the answer to call {@code number} carries. */
	static String deidentifiedText(long number) {
		return "screened call #" + number;
	}

	/** A sanitizeUserPrompt answer in the API's shape, for a template with SDP de-identification. */
	static String sanitizeAnswer(long number) {
		return """
				{
				  "sanitizationResult": {
				    "filterMatchState": "MATCH_FOUND",
				    "invocationResult": "SUCCESS",
				    "filterResults": {
				      "csam": {"csamFilterFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND"}},
				      "malicious_uris": {"maliciousUriFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND"}},
				      "rai": {"raiFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND"}},
				      "pi_and_jailbreak": {"piAndJailbreakFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND"}},
				      "sdp": {"sdpFilterResult": {"deidentifyResult": {
				        "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				        "data": {"text": "%s"}, "transformedBytes": "4", "infoTypes": ["PHONE_NUMBER"]}}}
				    },
				    "sanitizationMetadata": {}
				  }
				}
				""".formatted(deidentifiedText(number));
	}

	private static void answer(HttpExchange exchange, int status, String json) throws IOException {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
		exchange.sendResponseHeaders(status, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	private static void sleep(int millis) {
		if (millis <= 0) {
			return;
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stops at once: exchanges still held are dropped, handler threads are interrupted and awaited. */
	@Override
	public void close() throws InterruptedException {
		this.server.stop(0);
		this.handlers.shutdownNow();
		if (!this.handlers.awaitTermination(5, TimeUnit.SECONDS)) {
			throw new IllegalStateException("loopback Model Armor handler threads did not stop");
		}
	}

}
