package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.guard.ModelArmorStubs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Model Armor calls honour Spring Boot's HTTP client settings ({@code spring.http.clients.*}) and SSL bundles,
 * with {@code modelarmor.http.*} first, in real application contexts with Boot's own auto-configurations,
 * over real sockets: an HTTPS stand-in with a self-signed certificate, a socket whose backlog is full, and
 * WireMock.
 */
@Timeout(60)
class ModelArmorHttpClientSettingsTests {

	@TempDir
	static Path keys;

	private static SelfSignedHttpsServer https;

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=" + ModelArmorStubs.PROJECT,
				"modelarmor.template-id=" + ModelArmorStubs.DEFAULT_TEMPLATE, "modelarmor.credentials.enabled=false");

	@BeforeAll
	static void startHttps() throws Exception {
		https = new SelfSignedHttpsServer(keys, ModelArmorStubs.NO_MATCH);
	}

	@AfterAll
	static void stopHttps() {
		https.close();
	}

	private ApplicationContextRunner againstHttps() {
		return this.runner.withPropertyValues("modelarmor.endpoint=" + https.url());
	}

	private String pemTrust(String bundle) {
		return "spring.ssl.bundle.pem." + bundle + ".truststore.certificate=file:" + https.certificate();
	}

	@Test
	void reachesAServerWithASelfSignedCertificateThroughAPemBundle() {
		againstHttps().withPropertyValues(pemTrust("corporate"), "modelarmor.http.ssl.bundle=corporate")
			.run((context) -> assertThat(
					context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound())
				.isFalse());
	}

	@Test
	void reachesAServerWithASelfSignedCertificateThroughAJksBundle() {
		againstHttps()
			.withPropertyValues("spring.ssl.bundle.jks.corporate.truststore.location=file:" + https.keyStore(),
					"spring.ssl.bundle.jks.corporate.truststore.type=PKCS12",
					"spring.ssl.bundle.jks.corporate.truststore.password=" + SelfSignedHttpsServer.PASSWORD,
					"modelarmor.http.ssl.bundle=corporate")
			.run((context) -> assertThat(
					context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound())
				.isFalse());
	}

	@Test
	void usesTheBundleOfSpringHttpClientsWhenModelArmorNamesNone() {
		againstHttps().withPropertyValues(pemTrust("corporate"), "spring.http.clients.ssl.bundle=corporate")
			.run((context) -> assertThat(
					context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound())
				.isFalse());
	}

	@Test
	void modelArmorsBundleWinsOverThatOfSpringHttpClients() {
		// Model Armor's bundle trusts the JDK's CAs only; the application's trusts the stand-in.
		Path cacerts = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");
		againstHttps()
			.withPropertyValues("spring.ssl.bundle.jks.public.truststore.location=file:" + cacerts,
					"spring.ssl.bundle.jks.public.truststore.password=changeit", "modelarmor.http.ssl.bundle=public",
					pemTrust("corporate"), "spring.http.clients.ssl.bundle=corporate", "modelarmor.retry.enabled=false")
			.run((context) -> assertThatExceptionOfType(ModelArmorException.class)
				.isThrownBy(() -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"))
				.withMessageContaining("certificate was refused"));
	}

	@Test
	void withoutTheBundleTheCertificateIsRefusedAtOnceNamingTheProperty() {
		int before = https.requests();
		long start = System.nanoTime();
		againstHttps().run((context) -> {
			// The default retry deadline is 60 s: a refused certificate is not retried until it passes.
			ModelArmorException refused = catchThrowableOfType(ModelArmorException.class,
					() -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));
			assertThat(refused).isNotNull();
			assertThat(refused.getMessage()).contains("SSLHandshakeException")
				.contains("certificate was refused")
				.contains("modelarmor.http.ssl.bundle");
			assertThat(refused.attempts()).isEqualTo(1);
		});
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
		assertThat(https.requests()).isEqualTo(before);
	}

	@Test
	void anUnknownBundleFailsStartupNamingTheProperty() {
		againstHttps().withPropertyValues("modelarmor.http.ssl.bundle=missing").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith("modelarmor.http.ssl.bundle: the value 'missing' names no SSL bundle")
				.hasMessageContaining("spring.ssl.bundle.pem.missing");
		});
	}

	@Test
	void aBundleWithoutSslAutoConfigurationFailsStartupNamingTheProperty() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.credentials.enabled=false",
					"modelarmor.http.ssl.bundle=corporate")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith("modelarmor.http.ssl.bundle: "));
	}

	@Test
	void theConnectTimeoutOfSpringHttpClientsApplies() throws IOException {
		try (FullBacklog full = new FullBacklog()) {
			this.runner
				.withPropertyValues("modelarmor.endpoint=http://127.0.0.1:" + full.port(), "modelarmor.retry.enabled=false",
						"spring.http.clients.connect-timeout=300ms")
				.run((context) -> {
					ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
					long start = System.nanoTime();
					assertThatExceptionOfType(ModelArmorException.class)
						.isThrownBy(() -> operations.sanitizeUserPrompt("hello"))
						.withMessageContaining("HttpConnectTimeoutException");
					// The default connect timeout is 5 s: well under it, loosely.
					assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3500));
				});
		}
	}

	@Test
	void modelArmorsConnectTimeoutWinsOverThatOfSpringHttpClients() throws IOException {
		try (FullBacklog full = new FullBacklog()) {
			this.runner
				.withPropertyValues("modelarmor.endpoint=http://127.0.0.1:" + full.port(), "modelarmor.retry.enabled=false",
						"spring.http.clients.connect-timeout=30s", "modelarmor.http.connect-timeout=300ms")
				.run((context) -> {
					ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
					long start = System.nanoTime();
					assertThatExceptionOfType(ModelArmorException.class)
						.isThrownBy(() -> operations.sanitizeUserPrompt("hello"))
						.withMessageContaining("HttpConnectTimeoutException");
					// The default connect timeout is 5 s: well under it, loosely.
					assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3500));
				});
		}
	}

	@Test
	void theRetryDeadlineStillBoundsAnAttemptWhateverTheReadTimeout() {
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorStubs.promptPath()))
			.willReturn(okJson(ModelArmorStubs.NO_MATCH).withFixedDelay(8_000)));
		this.runner
			.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl(), "spring.http.clients.read-timeout=30s",
					"modelarmor.retry.deadline=1s")
			.run((context) -> {
				ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
				long start = System.nanoTime();
				assertThatExceptionOfType(ModelArmorException.class)
					.isThrownBy(() -> operations.sanitizeUserPrompt("hello"));
				// The answer would come after 8 s: the 1 s deadline ends the attempt, loosely.
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(5000));
			});
		modelArmor.resetAll();
	}

	@Test
	void redirectsAreNotFollowedEvenWhenSpringHttpClientsSaysFollow() {
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorStubs.promptPath()))
			.willReturn(aResponse().withStatus(307).withHeader("Location", modelArmor.baseUrl() + "/elsewhere")));
		modelArmor.stubFor(any(urlPathMatching("/elsewhere")).willReturn(okJson(ModelArmorStubs.NO_MATCH)));
		this.runner
			.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl(), "spring.http.clients.redirects=follow")
			.run((context) -> assertThatExceptionOfType(ModelArmorApiException.class)
				.isThrownBy(() -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello")));
		modelArmor.verify(0, getRequestedFor(urlPathEqualTo("/elsewhere")));
		modelArmor.verify(0, com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlPathEqualTo("/elsewhere")));
		modelArmor.resetAll();
	}

	@Test
	void modelArmorsTimeoutsWinOverSpringHttpClientsWhichWinOverTheDefaults() {
		HttpClientSettings application = HttpClientSettings.defaults()
			.withTimeouts(Duration.ofSeconds(7), Duration.ofSeconds(40))
			.withRedirects(HttpRedirects.FOLLOW);
		ModelArmorProperties properties = new ModelArmorProperties();
		assertThat(ModelArmorSettings.of(properties).timeouts()).isEqualTo(HttpTimeouts.DEFAULTS);
		assertThat(ModelArmorSettings.of(properties, application, null).timeouts())
			.isEqualTo(new HttpTimeouts(Duration.ofSeconds(7), Duration.ofSeconds(40)));
		properties.getHttp().setConnectTimeout(Duration.ofSeconds(2));
		assertThat(ModelArmorSettings.of(properties, application, null).timeouts())
			.isEqualTo(new HttpTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(40)));
		properties.getHttp().setReadTimeout(Duration.ofSeconds(9));
		ModelArmorSettings settings = ModelArmorSettings.of(properties, application, null);
		assertThat(settings.timeouts()).isEqualTo(new HttpTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(9)));
		assertThat(settings.http().redirects()).isEqualTo(HttpRedirects.DONT_FOLLOW);
	}

	@Test
	void anInvalidTimeoutOfSpringHttpClientsFailsStartupNamingThatProperty() {
		this.runner.withConfiguration(AutoConfigurations.of(HttpClientAutoConfiguration.class))
			.withPropertyValues("spring.http.clients.read-timeout=0s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith("spring.http.clients.read-timeout: "));
		this.runner.withPropertyValues("spring.http.clients.read-timeout=0s", "modelarmor.http.read-timeout=5s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	/**
	 * A listening socket that accepts nothing and whose backlog is full: a connection attempt to it gets no
	 * answer (Linux drops the SYN), so only the client's connect timeout ends it.
	 */
	static final class FullBacklog implements AutoCloseable {

		private final ServerSocket server;

		private final List<Socket> filling = new ArrayList<>();

		FullBacklog() throws IOException {
			this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
			for (int i = 0; i < 16; i++) {
				Socket socket = new Socket();
				try {
					socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 200);
					this.filling.add(socket);
				}
				catch (SocketTimeoutException ex) {
					socket.close();
					return;
				}
			}
			throw new IllegalStateException("the backlog never filled: connect timeouts cannot be tested here");
		}

		int port() {
			return this.server.getLocalPort();
		}

		@Override
		public void close() throws IOException {
			for (Socket socket : this.filling) {
				socket.close();
			}
			this.server.close();
		}

	}

}
