package dev.modelarmor.starter;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.auth.oauth2.GoogleCredentials;
import com.sun.net.httpserver.HttpServer;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the starter adds to an application's runtime classpath, read from the dependency list Maven
 * resolves for it ({@code target/runtime-dependencies.txt}), and proof that what it excludes from
 * google-auth is never loaded: a service-account key is read, signed into a JWT and exchanged for an
 * access token, twice, on exactly this classpath (spring-boot-starter-test adds none of the excluded jars).
 */
class StarterFootprintTests {

	/**
	 * The Google side of the starter: google-auth and what it needs. 24 jars before the exclusions;
	 * guava, failureaccess, gson, google-auth (2), google-http-client (2), OpenCensus (2) and grpc-context
	 * 1.56 (io.grpc.Context, nothing else of gRPC) now.
	 */
	static final int MAX_GOOGLE_SIDE_JARS = 10;

	/**
	 * Every runtime jar of the starter, Spring Boot's own and the starter's modules included (48 measured):
	 * 44, then the circuit breaker (resilience4j-circuitbreaker and -core, on by default) and the quota limiter's
	 * bucket (bucket4j_jdk17-core, no dependencies of its own), together 0.6 MB; then the one jar split into the
	 * client, the screening layer and the auto-configuration (+2 jars, and the Spring AI integration left out); then
	 * grpc-api left out (-1).
	 */
	static final int MAX_RUNTIME_JARS = 48;

	static final List<String> NEVER_LOADED = List.of("org.apache.httpcomponents:httpclient",
			"org.apache.httpcomponents:httpcore", "commons-codec:commons-codec", "com.google.api:api-common",
			"com.google.auto.value:auto-value-annotations", "com.google.code.findbugs:jsr305",
			"com.google.errorprone:error_prone_annotations", "com.google.j2objc:j2objc-annotations",
			"com.google.guava:listenablefuture");

	private static final Pattern ARTIFACT = Pattern
		.compile("^\\s*([^:\\s]+):([^:]+):jar:(?:[^:]+:)?([^:]+):(compile|runtime):(\\S+\\.jar)");

	@Test
	void theStarterAddsABoundedNumberOfJarsAndNoneOfTheExcludedOnes() throws IOException {
		List<String> runtime = runtimeArtifacts();
		List<String> googleSide = runtime.stream().filter(StarterFootprintTests::isGoogleSide).toList();
		assertThat(runtime).as("runtime jars").hasSizeLessThanOrEqualTo(MAX_RUNTIME_JARS);
		assertThat(googleSide).as("google-auth and what it brings").hasSizeLessThanOrEqualTo(MAX_GOOGLE_SIDE_JARS);
		assertThat(runtime).doesNotContainAnyElementsOf(NEVER_LOADED);
	}

	/**
	 * gRPC-aware libraries decide by {@code io.grpc.Channel} whether an application uses gRPC: Spring Cloud
	 * Gateway then configures gRPC routing, which fails without grpc-netty. The starter needs only
	 * {@code io.grpc.Context} (OpenCensus traces each token request with it), so grpc-api stays out.
	 */
	@Test
	void theStarterBringsGrpcContextButNoGrpcChannel() throws IOException {
		assertThat(runtimeArtifacts()).contains("io.grpc:grpc-context").doesNotContain("io.grpc:grpc-api");
		assertThat(loadable("io.grpc.Context")).isTrue();
		assertThat(loadable("io.grpc.Channel")).isFalse();
	}

	@Test
	void excludedClassesAreReallyAbsentFromTheTestClasspath() {
		for (String name : List.of("org.apache.http.client.HttpClient", "org.apache.commons.codec.binary.Base64",
				"com.google.api.core.InternalApi", "com.google.errorprone.annotations.CanIgnoreReturnValue")) {
			assertThat(loadable(name)).as(name).isFalse();
		}
	}

	@Test
	void aServiceAccountKeyIsExchangedForTokensWithoutTheExcludedJars() throws Exception {
		AtomicInteger tokenRequests = new AtomicInteger();
		HttpServer server = tokenServer(tokenRequests);
		try {
			String tokenUri = "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
			GoogleCredentials credentials = new GoogleCredentialsLoader()
				.load(new ByteArrayResource(serviceAccountJson(tokenUri).getBytes(StandardCharsets.UTF_8)), null);

			Map<String, List<String>> metadata = credentials.getRequestMetadata(URI.create("https://modelarmor.test"));
			assertThat(metadata.get("Authorization")).containsExactly("Bearer token-1");
			credentials.refresh();
			assertThat(credentials.getRequestMetadata(URI.create("https://modelarmor.test")).get("Authorization"))
				.containsExactly("Bearer token-2");
			assertThat(tokenRequests).hasValue(2);
		}
		finally {
			server.stop(0);
		}
	}

	/**
	 * The other half of the bound: no Google-side jar the starter keeps could be excluded too. The token
	 * exchange runs in a class loader that sees only those jars (and the JDK) and records which jar each
	 * class came from; every jar that holds classes must have served at least one.
	 */
	@Test
	void everyGoogleSideJarTheStarterKeepsServesClassesToATokenExchange() throws Exception {
		Map<String, Path> googleSide = new LinkedHashMap<>(runtimeJars());
		googleSide.keySet().removeIf((ga) -> !isGoogleSide(ga));
		List<URL> urls = new ArrayList<>();
		for (Path jar : googleSide.values()) {
			urls.add(jar.toUri().toURL());
		}
		AtomicInteger tokenRequests = new AtomicInteger();
		HttpServer server = tokenServer(tokenRequests);
		try (SourceRecordingClassLoader loader = new SourceRecordingClassLoader(urls.toArray(URL[]::new))) {
			String tokenUri = "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
			Class<?> credentialsType = loader.loadClass("com.google.auth.oauth2.GoogleCredentials");
			Object credentials = credentialsType.getMethod("fromStream", InputStream.class)
				.invoke(null, new ByteArrayInputStream(serviceAccountJson(tokenUri).getBytes(StandardCharsets.UTF_8)));
			Object scoped = credentialsType.getMethod("createScoped", String[].class)
				.invoke(credentials, (Object) new String[] { "https://www.googleapis.com/auth/cloud-platform" });
			credentialsType.getMethod("refresh").invoke(scoped);

			assertThat(tokenRequests).hasValue(1);
			Map<String, Path> unused = new LinkedHashMap<>(googleSide);
			unused.values().removeIf((jar) -> loader.sources().contains(jar) || !holdsClasses(jar));
			assertThat(unused).as("kept, but no class of theirs was loaded").isEmpty();
		}
		finally {
			server.stop(0);
		}
	}

	private static List<String> runtimeArtifacts() throws IOException {
		return List.copyOf(runtimeJars().keySet());
	}

	/** groupId:artifactId to the jar's path, in Maven's order. */
	private static Map<String, Path> runtimeJars() throws IOException {
		Path list = Path.of("target", "runtime-dependencies.txt");
		assertThat(list).as("written by maven-dependency-plugin:list at generate-test-resources").exists();
		Map<String, Path> jars = new LinkedHashMap<>();
		for (String line : Files.readAllLines(list)) {
			Matcher matcher = ARTIFACT.matcher(line);
			if (matcher.find()) {
				jars.put(matcher.group(1) + ":" + matcher.group(2), Path.of(matcher.group(5)));
			}
		}
		assertThat(jars).as("artifacts parsed from " + list).isNotEmpty();
		return jars;
	}

	private static boolean isGoogleSide(String groupAndArtifact) {
		return groupAndArtifact.startsWith("com.google") || groupAndArtifact.startsWith("io.grpc")
				|| groupAndArtifact.startsWith("io.opencensus") || groupAndArtifact.startsWith("org.apache.httpcomponents")
				|| groupAndArtifact.startsWith("commons-codec");
	}

	/** A token endpoint that answers a JWT-bearer grant with a numbered access token. */
	private static HttpServer tokenServer(AtomicInteger tokenRequests) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/token", (exchange) -> {
			String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			int n = tokenRequests.incrementAndGet();
			boolean jwtBearer = form.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer")
					&& form.contains("assertion=");
			byte[] body = (jwtBearer
					? "{\"access_token\":\"token-" + n + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}"
					: "{\"error\":\"invalid_grant\"}")
				.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(jwtBearer ? 200 : 400, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		return server;
	}

	/** Loads only from its jars (and the JDK), and remembers which jar each class came from. */
	private static final class SourceRecordingClassLoader extends URLClassLoader {

		private final Set<Path> sources = ConcurrentHashMap.newKeySet();

		SourceRecordingClassLoader(URL[] jars) {
			super(jars, ClassLoader.getPlatformClassLoader());
		}

		@Override
		protected Class<?> findClass(String name) throws ClassNotFoundException {
			Class<?> found = super.findClass(name);
			try {
				this.sources.add(Path.of(found.getProtectionDomain().getCodeSource().getLocation().toURI()));
			}
			catch (URISyntaxException ex) {
				throw new IllegalStateException(ex);
			}
			return found;
		}

		Set<Path> sources() {
			return this.sources;
		}

	}

	private static boolean holdsClasses(Path jar) {
		try (JarFile file = new JarFile(jar.toFile())) {
			return file.stream().anyMatch((entry) -> entry.getName().endsWith(".class")
					&& !entry.getName().endsWith("module-info.class"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean loadable(String name) {
		try {
			Class.forName(name, false, StarterFootprintTests.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	private static String serviceAccountJson(String tokenUri) throws NoSuchAlgorithmException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		String base64 = Base64.getEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
		StringBuilder pem = new StringBuilder("-----BEGIN PRIVATE KEY-----\\n");
		for (int i = 0; i < base64.length(); i += 64) {
			pem.append(base64, i, Math.min(base64.length(), i + 64)).append("\\n");
		}
		pem.append("-----END PRIVATE KEY-----\\n");
		return "{\"type\":\"service_account\",\"project_id\":\"footprint-test\",\"private_key_id\":\"abc\","
				+ "\"private_key\":\"" + pem + "\",\"client_email\":\"sa@footprint-test.iam.gserviceaccount.com\","
				+ "\"client_id\":\"1\",\"token_uri\":\"" + tokenUri + "\"}";
	}

}
