package dev.modelarmor.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The background token refresh of {@link GoogleCredentialsInterceptor} ({@link TokenRefresher}), against
 * a WireMock token endpoint. The refresher reads the time from a {@link VirtualTime} that starts at the
 * real time, so that a token valid for an hour comes within its refresh window when the test says so;
 * it checks every 20 ms instead of every 30 s. google-auth keeps its own, real clock: to it, every token
 * here is fresh, so any token request a test sees comes from the refresher, never from a caller.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(90)
class TokenRefresherTests {

	static final String SANITIZE_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt";

	static final Duration CHECK_EVERY = Duration.ofMillis(20);

	static final String FAILED_LINE = "Model Armor access token could not be refreshed in the background, trying again: "
			+ "failure=GoogleAuthException expiresIn=PT";

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final List<GoogleCredentialsInterceptor> interceptors = new ArrayList<>();

	private VirtualTime clock;

	@BeforeEach
	void setUp() {
		this.clock = new VirtualTime(Instant.now());
		wireMock.stubFor(post(SANITIZE_PATH).willReturn(okJson("{\"sanitizationResult\":{}}")));
		wireMock.stubFor(post("/token").inScenario("tokens")
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(token("ya29.first"))
			.willSetStateTo("second"));
		wireMock.stubFor(post("/token").inScenario("tokens").whenScenarioStateIs("second").willReturn(token("ya29.second")));
	}

	@AfterEach
	void close() {
		this.interceptors.forEach(GoogleCredentialsInterceptor::close);
	}

	@Test
	void fetchesTheFirstTokenBeforeAnyCall() {
		RestClient client = restClient();

		awaitTokenRequests(1);
		sendWith(client, "ya29.first");

		assertThat(tokenRequests()).isEqualTo(1);
	}

	@Test
	void replacesATokenFiveMinutesBeforeItExpiresWithoutACaller() throws InterruptedException {
		RestClient client = restClient();
		awaitTokenRequests(1);

		// Six minutes before expiry: not yet. Many checks run meanwhile.
		this.clock.advance(Duration.ofMinutes(54));
		Thread.sleep(200);
		assertThat(tokenRequests()).isEqualTo(1);

		// Less than five minutes before expiry: replaced by the refresher, no call involved.
		this.clock.advance(Duration.ofMinutes(1).plusSeconds(10));
		awaitTokenRequests(2);
		sendWith(client, "ya29.second");

		assertThat(tokenRequests()).isEqualTo(2);
	}

	@Test
	void aFailedRefreshKeepsTheCurrentTokenLogsOnceAndIsTriedAgainUntilItWorks(CapturedOutput output) {
		RestClient client = restClient();
		awaitTokenRequests(1);
		wireMock.stubFor(post("/token").inScenario("tokens")
			.whenScenarioStateIs("second")
			.willReturn(aResponse().withStatus(400)
				.withHeader("Content-Type", "application/json")
				.withBody("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}")));

		this.clock.advance(Duration.ofMinutes(56));
		await(() -> tokenRequests() >= 4);
		sendWith(client, "ya29.first");

		assertThat(occurrences(output.getOut(), FAILED_LINE)).isEqualTo(1);

		wireMock.stubFor(post("/token").inScenario("tokens").whenScenarioStateIs("second").willReturn(token("ya29.second")));
		await(() -> output.getOut().contains("Model Armor access token refreshed in the background again: expiresIn=PT"));
		sendWith(client, "ya29.second");

		assertThat(occurrences(output.getOut(), FAILED_LINE)).isEqualTo(1);
		assertThat(output.getOut()).doesNotContain("ya29.", "invalid_grant", "Invalid JWT");
	}

	@Test
	void aClosedInterceptorRefreshesNothing() throws InterruptedException {
		GoogleCredentialsInterceptor interceptor = interceptor();
		awaitTokenRequests(1);

		interceptor.close();
		this.clock.advance(Duration.ofMinutes(58));
		Thread.sleep(200);

		assertThat(tokenRequests()).isEqualTo(1);
	}

	/**
	 * A token answer: the first token lives an hour, later ones two. google-auth dates a token by the real
	 * clock, which the test does not move, so a second one-hour token would already be inside the
	 * refresh window of the virtual clock that the test moved 55 minutes ahead.
	 */
	private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder token(String value) {
		int expiresIn = value.equals("ya29.first") ? 3600 : 7200;
		return okJson("{\"access_token\":\"" + value + "\",\"expires_in\":" + expiresIn + ",\"token_type\":\"Bearer\"}");
	}

	private GoogleCredentialsInterceptor interceptor() {
		TestServiceAccount account = TestServiceAccount.create(wireMock.baseUrl() + "/token");
		GoogleCredentialsLoader loader = new GoogleCredentialsLoader(() -> {
			throw new AssertionError("Application Default Credentials must not be looked up");
		});
		GoogleCredentialsInterceptor interceptor = new GoogleCredentialsInterceptor(
				loader.load(new ByteArrayResource(account.bytes()), null), Duration.ofSeconds(5), this.clock,
				CHECK_EVERY);
		this.interceptors.add(interceptor);
		return interceptor;
	}

	private RestClient restClient() {
		return RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory())
			.baseUrl(wireMock.baseUrl())
			.requestInterceptor(interceptor())
			.build();
	}

	/** Sends a request and checks that it carried the token. */
	private static void sendWith(RestClient client, String token) {
		int before = sentWith(token);
		client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();
		assertThat(sentWith(token)).as("requests sent with %s", token).isEqualTo(before + 1);
	}

	private static int sentWith(String token) {
		return wireMock
			.countRequestsMatching(postRequestedFor(urlEqualTo(SANITIZE_PATH))
				.withHeader("Authorization", equalTo("Bearer " + token))
				.build())
			.getCount();
	}

	private static int tokenRequests() {
		return wireMock.countRequestsMatching(postRequestedFor(urlEqualTo("/token")).build()).getCount();
	}

	private static void awaitTokenRequests(int count) {
		await(() -> tokenRequests() >= count);
		assertThat(tokenRequests()).isEqualTo(count);
	}

	private static void await(BooleanSupplier condition) {
		long giveUp = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited 30 s for the refresher").isLessThan(giveUp);
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

}
