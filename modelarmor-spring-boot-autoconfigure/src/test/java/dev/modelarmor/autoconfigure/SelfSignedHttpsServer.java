package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * A Model Armor stand-in on loopback that speaks HTTPS with a self-signed certificate for
 * {@code localhost} and {@code 127.0.0.1}, made by the JDK's {@code keytool} when the server starts: no
 * trust store knows it, so a client reaches it only through an SSL bundle that trusts its certificate
 * ({@link #certificate()} as PEM, or {@link #keyStore()} as PKCS#12). It answers every request with
 * {@code answer}, and counts them.
 */
final class SelfSignedHttpsServer implements AutoCloseable {

	static final String PASSWORD = "loopback-only";

	private final Path keyStore;

	private final Path certificate;

	private final HttpsServer server;

	private final ExecutorService handlers = Executors.newFixedThreadPool(2);

	private final AtomicInteger requests = new AtomicInteger();

	SelfSignedHttpsServer(Path directory, String answer) throws Exception {
		this.keyStore = directory.resolve("loopback.p12");
		this.certificate = directory.resolve("loopback.crt");
		keytool("-genkeypair", "-alias", "loopback", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
				"CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
				"-keystore", this.keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
		keytool("-exportcert", "-rfc", "-alias", "loopback", "-keystore", this.keyStore.toString(), "-storepass",
				PASSWORD, "-file", this.certificate.toString());
		this.server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setHttpsConfigurator(new HttpsConfigurator(sslContext(this.keyStore)));
		this.server.setExecutor(this.handlers);
		this.server.createContext("/", (exchange) -> {
			this.requests.incrementAndGet();
			try (InputStream in = exchange.getRequestBody()) {
				in.readAllBytes();
			}
			byte[] body = answer.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new java.util.ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IllegalStateException("keytool failed: " + output);
		}
	}

	private static SSLContext sslContext(Path keyStore) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(keyStore)) {
			store.load(in, PASSWORD.toCharArray());
		}
		KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keys.init(store, PASSWORD.toCharArray());
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keys.getKeyManagers(), null, null);
		return context;
	}

	/** The base URL, by address: the certificate names {@code 127.0.0.1} too, and the server listens on no other. */
	String url() {
		return "https://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** The certificate as PEM, for {@code spring.ssl.bundle.pem.*.truststore.certificate}. */
	Path certificate() {
		return this.certificate;
	}

	/** The key and certificate as PKCS#12 with {@link #PASSWORD}, for {@code spring.ssl.bundle.jks.*}. */
	Path keyStore() {
		return this.keyStore;
	}

	int requests() {
		return this.requests.get();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.handlers.shutdownNow();
	}

}
