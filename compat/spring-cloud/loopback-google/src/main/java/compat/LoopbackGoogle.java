package compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Google on loopback: an OAuth token endpoint, Model Armor's sanitize and template-read endpoints, and a plain
 * backend ({@code /backend/**}) for a gateway's route. A prompt or answer containing "Ignore previous
 * instructions" matches the prompt-injection filter; everything else passes.
 */
public final class LoopbackGoogle implements AutoCloseable {

	/** What Model Armor was asked: the request path and its {@code Authorization} header. */
	public record Call(String path, String authorization) {
	}

	private static final String TOKEN = "loopback-access-token";

	private final HttpServer server;

	private final List<Call> calls = new CopyOnWriteArrayList<>();

	private LoopbackGoogle(HttpServer server) {
		this.server = server;
	}

	/**
	 * Starts the endpoints on a free loopback port.
	 * @return the running server
	 */
	public static LoopbackGoogle start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			LoopbackGoogle google = new LoopbackGoogle(server);
			server.createContext("/token", google::token);
			server.createContext("/v1/", google::modelArmor);
			server.createContext("/backend/", (exchange) -> google.answer(exchange, 200, "text/plain", "from the backend"));
			server.start();
			return google;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** @return the base URL, e.g. {@code http://127.0.0.1:40123} */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** @return the access token the token endpoint hands out */
	public String token() {
		return TOKEN;
	}

	/** @return the Model Armor calls received so far, in order */
	public List<Call> calls() {
		return List.copyOf(this.calls);
	}

	/**
	 * Writes a service-account key (a fresh RSA key) whose {@code token_uri} is this server's token endpoint.
	 * @param directory where to write it
	 * @param projectId the key's project
	 * @return the key file
	 */
	public Path writeServiceAccount(Path directory, String projectId) {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			String base64 = Base64.getEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
			String json = """
					{"type": "service_account", "project_id": "%s", "private_key_id": "0123456789abcdef",
					 "private_key": "-----BEGIN PRIVATE KEY-----\\n%s\\n-----END PRIVATE KEY-----\\n",
					 "client_email": "compat@%s.iam.gserviceaccount.com", "client_id": "123456789012345678901",
					 "token_uri": "%s/token"}
					""".formatted(projectId, base64, projectId, url());
			return Files.writeString(Files.createDirectories(directory).resolve("service-account.json"), json);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The starter's properties for an application screening through this server with every other default:
	 * credentials on (a service-account key whose tokens come from here), retries, breaker and all.
	 * @param directory where to write the service-account key
	 * @return property names and values
	 */
	public Map<String, String> starterProperties(Path directory) {
		return Map.of("modelarmor.project-id", "compat-project", "modelarmor.template-id", "chat",
				"modelarmor.endpoint", url(), "modelarmor.credentials.location",
				"file:" + writeServiceAccount(directory, "compat-project"));
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	private void token(HttpExchange exchange) throws IOException {
		drain(exchange);
		answer(exchange, 200, "application/json",
				"{\"access_token\": \"" + TOKEN + "\", \"expires_in\": 3600, \"token_type\": \"Bearer\"}");
	}

	private void modelArmor(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String authorization = exchange.getRequestHeaders().getFirst("Authorization");
		this.calls.add(new Call(path, (authorization != null) ? authorization : ""));
		String body = drain(exchange);
		if ("GET".equals(exchange.getRequestMethod())) {
			answer(exchange, 200, "application/json", "{\"name\": \"" + path.substring("/v1/".length())
					+ "\", \"filterConfig\": {\"piAndJailbreakFilterSettings\": {\"filterEnforcement\": \"ENABLED\"}}}");
			return;
		}
		boolean injection = body.contains("Ignore previous instructions");
		String filter = "{\"piAndJailbreakFilterResult\": {\"executionState\": \"EXECUTION_SUCCESS\", \"matchState\": \""
				+ (injection ? "MATCH_FOUND\", \"confidenceLevel\": \"HIGH\"" : "NO_MATCH_FOUND\"") + "}}";
		answer(exchange, 200, "application/json",
				"{\"sanitizationResult\": {\"filterMatchState\": \"" + (injection ? "MATCH_FOUND" : "NO_MATCH_FOUND")
						+ "\", \"invocationResult\": \"SUCCESS\", \"filterResults\": {\"pi_and_jailbreak\": " + filter
						+ "}}}");
	}

	private static String drain(HttpExchange exchange) throws IOException {
		try (InputStream in = exchange.getRequestBody()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private void answer(HttpExchange exchange, int status, String contentType, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().putAll(Map.of("Content-Type", List.of(contentType)));
		exchange.sendResponseHeaders(status, bytes.length);
		try (var out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
