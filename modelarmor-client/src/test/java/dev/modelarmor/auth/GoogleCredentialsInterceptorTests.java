package dev.modelarmor.auth;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.google.auth.Credentials;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.TokenUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link GoogleCredentialsInterceptor} through a real {@link RestClient}: the token
 * endpoint and the API are both WireMock on localhost.
 */
class GoogleCredentialsInterceptorTests {

	private static final String TOKEN = "ya29.test-token";

	private static final String SANITIZE_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt";

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final GoogleCredentialsLoader loader = new GoogleCredentialsLoader(() -> {
		throw new AssertionError("Application Default Credentials must not be looked up");
	});

	private TestServiceAccount account;

	private final List<GoogleCredentialsInterceptor> interceptors = new ArrayList<>();

	@AfterEach
	void closeInterceptors() {
		this.interceptors.forEach(GoogleCredentialsInterceptor::close);
	}

	@BeforeEach
	void setUp() {
		this.account = TestServiceAccount.create(wireMock.baseUrl() + "/token");
		wireMock.stubFor(post("/token")
			.willReturn(okJson("{\"access_token\":\"" + TOKEN + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		wireMock.stubFor(post(SANITIZE_PATH).willReturn(okJson("{\"sanitizationResult\":{}}")));
	}

	@Test
	void sendsBearerTokenFromServiceAccount() {
		RestClient client = restClient(this.loader.load(resource(), null));

		String body = client.post().uri(SANITIZE_PATH).body("{}").retrieve().body(String.class);

		assertThat(body).contains("sanitizationResult");
		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer " + TOKEN)));
		wireMock.verify(postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("x-goog-user-project", absent()));
		wireMock.verify(1, postRequestedFor(urlEqualTo("/token"))
			.withRequestBody(containing("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer")));
	}

	@Test
	void fetchesTheTokenOnceForManyCalls() {
		RestClient client = restClient(this.loader.load(resource(), null));

		for (int i = 0; i < 5; i++) {
			client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();
		}

		wireMock.verify(5, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer " + TOKEN)));
		wireMock.verify(1, postRequestedFor(urlEqualTo("/token")));
	}

	@Test
	void aRefusedTokenIsRefreshedOnceAndTheRequestSentOnceMore() {
		wireMock.stubFor(post("/token").inScenario("tokens").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson("{\"access_token\":\"ya29.expired\",\"expires_in\":3600,\"token_type\":\"Bearer\"}"))
			.willSetStateTo("refreshed"));
		wireMock.stubFor(post("/token").inScenario("tokens").whenScenarioStateIs("refreshed")
			.willReturn(okJson("{\"access_token\":\"ya29.fresh\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		wireMock.stubFor(post(SANITIZE_PATH).withHeader("Authorization", equalTo("Bearer ya29.expired"))
			.willReturn(aResponse().withStatus(401)));
		wireMock.stubFor(post(SANITIZE_PATH).withHeader("Authorization", equalTo("Bearer ya29.fresh"))
			.willReturn(okJson("{\"sanitizationResult\":{}}")));
		RestClient client = restClient(this.loader.load(resource(), null));

		String body = client.post().uri(SANITIZE_PATH).body("{\"same\":\"body\"}").retrieve().body(String.class);

		assertThat(body).contains("sanitizationResult");
		wireMock.verify(2, postRequestedFor(urlEqualTo("/token")));
		wireMock.verify(2, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withRequestBody(equalTo("{\"same\":\"body\"}")));
	}

	@Test
	void aSecondRefusalIsTheAnswerNotALoop() {
		wireMock.stubFor(post(SANITIZE_PATH).willReturn(aResponse().withStatus(401)));
		RestClient client = restClient(this.loader.load(resource(), null));

		int status = client.post().uri(SANITIZE_PATH).body("{}").exchange((request, response) -> response.getStatusCode().value());

		assertThat(status).isEqualTo(401);
		wireMock.verify(2, postRequestedFor(urlEqualTo(SANITIZE_PATH)));
		wireMock.verify(2, postRequestedFor(urlEqualTo("/token")));
	}

	@Test
	void sendsConfiguredQuotaProject() {
		RestClient client = restClient(this.loader.load(resource(), "billing-project"));

		client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();

		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH))
			.withHeader("Authorization", equalTo("Bearer " + TOKEN))
			.withHeader("x-goog-user-project", equalTo("billing-project")));
	}

	@Test
	void sendsQuotaProjectFromTheCredentialsFile() {
		TestServiceAccount withQuota = TestServiceAccount.create(wireMock.baseUrl() + "/token", "file-quota-project");
		RestClient client = restClient(this.loader.load(new ByteArrayResource(withQuota.bytes()), null));

		client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();

		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("x-goog-user-project",
				equalTo("file-quota-project")));
	}

	@Test
	void replacesAnAuthorizationHeaderSetByTheCaller() {
		RestClient client = restClient(this.loader.load(resource(), null));

		client.post().uri(SANITIZE_PATH).header("Authorization", "Bearer stale").body("{}").retrieve().toBodilessEntity();

		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer " + TOKEN)));
	}

	@Test
	void failingTokenEndpointIsAnIoFailureWithoutSecrets() {
		wireMock.stubFor(post("/token").willReturn(aResponse().withStatus(500).withBody("{\"error\":\"internal\"}")));
		RestClient client = restClient(this.loader.load(resource(), null));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity())
			.withMessageContaining("Could not obtain a Google access token")
			.withRootCauseInstanceOf(IOException.class)
			.satisfies((ex) -> {
				assertThat(ex.getCause()).isInstanceOf(IOException.class)
					.hasMessageContaining("Could not obtain a Google access token");
				assertNoSecretInChain(ex);
			});
		// google-auth itself retries a 5xx token answer 3 times (1s, 2s, 4s backoff) before failing.
		wireMock.verify(4, postRequestedFor(urlEqualTo("/token")));
		wireMock.verify(0, postRequestedFor(urlEqualTo(SANITIZE_PATH)));
	}

	@Test
	void rejectedGrantIsAnIoFailureWithoutSecrets() {
		wireMock.stubFor(post("/token").willReturn(aResponse().withStatus(400)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}")));
		RestClient client = restClient(this.loader.load(resource(), null));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity())
			.withMessageContaining("Could not obtain a Google access token")
			.satisfies(this::assertNoSecretInChain);
		wireMock.verify(0, postRequestedFor(urlEqualTo(SANITIZE_PATH)));
	}

	@Test
	void addsEveryHeaderTheCredentialsAskFor() throws IOException {
		Credentials fixed = new FixedCredentials(Map.of("Authorization", List.of("Bearer fixed"), "x-extra",
				List.of("one", "two")));
		RestClient client = restClient(fixed);

		client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();

		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH))
			.withHeader("Authorization", equalTo("Bearer fixed"))
			.withHeader("x-extra", equalTo("one"))
			.withHeader("x-extra", equalTo("two")));
	}

	@Test
	void aStalledTokenEndpointHoldsARequestNoLongerThanItsDeadline() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			RestClient client = restClient(stalledCredentials(stalling));

			Duration elapsed = timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> requestWithDeadline(client, Duration.ofMillis(500)).body("{}").retrieve().toBodilessEntity())
				.satisfies((ex) -> {
					assertThat(ex.getCause()).isInstanceOfSatisfying(TokenUnavailableException.class, (noToken) -> {
						assertThat(noToken.description()).isEqualTo("token unavailable (TimeoutException)");
						assertThat(noToken).hasMessageStartingWith(
								"Could not obtain a Google access token for the Model Armor call within ")
							.hasMessageEndingWith(" ms (TimeoutException); check that the token endpoint is reachable")
							.hasCauseInstanceOf(TimeoutException.class);
					});
					assertNoSecretInChain(ex);
				}));

			// The default 30 s read timeout did not bound it: the call's 500 ms did.
			assertThat(elapsed).isBetween(Duration.ofMillis(450), Duration.ofMillis(1_500));
			assertThat(stalling.connections()).isEqualTo(1);
		}
		wireMock.verify(0, postRequestedFor(urlEqualTo(SANITIZE_PATH)));
	}

	@Test
	void withoutADeadlineTheMaxWaitBoundsTheWaitForAToken() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			RestClient client = restClient(new GoogleCredentialsInterceptor(stalledCredentials(stalling),
					Duration.ofMillis(300)));

			Duration elapsed = timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity())
				.withCauseInstanceOf(TokenUnavailableException.class));

			assertThat(elapsed).isBetween(Duration.ofMillis(250), Duration.ofMillis(1_300));
		}
		wireMock.verify(0, postRequestedFor(urlEqualTo(SANITIZE_PATH)));
	}

	@Test
	void aDeadlineShorterThanTheMaxWaitWinsAndALongerOneDoesNot() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			RestClient client = restClient(new GoogleCredentialsInterceptor(stalledCredentials(stalling),
					Duration.ofMillis(300)));

			Duration longDeadline = timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> requestWithDeadline(client, Duration.ofSeconds(60)).body("{}").retrieve().toBodilessEntity()));

			assertThat(longDeadline).isBetween(Duration.ofMillis(250), Duration.ofMillis(1_300));
		}
	}

	@Test
	void aStalledRefreshAfterARefusalIsBoundedByTheDeadline() throws Exception {
		wireMock.stubFor(post(SANITIZE_PATH).willReturn(aResponse().withStatus(401)));
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			// A token at hand, valid for an hour: only the refresh that the 401 asks for meets the stall.
			GoogleCredentials withToken = (GoogleCredentials) ((ServiceAccountCredentials) stalledCredentials(stalling))
				.toBuilder()
				.setAccessToken(new AccessToken("ya29.refused", Date.from(Instant.now().plus(Duration.ofHours(1)))))
				.build();
			RestClient client = restClient(withToken);

			Duration elapsed = timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> requestWithDeadline(client, Duration.ofMillis(700)).body("{}").retrieve().toBodilessEntity())
				.satisfies((ex) -> {
					assertThat(ex.getCause()).isInstanceOf(TokenUnavailableException.class)
						.hasMessageStartingWith("Could not refresh the Google access token refused by Model Armor within ");
					assertNoSecretInChain(ex);
					assertThat(ex).hasStackTraceContaining("TimeoutException").satisfies((chain) -> {
						for (Throwable t = chain; t != null; t = t.getCause()) {
							assertThat(String.valueOf(t.getMessage())).doesNotContain("ya29.refused");
						}
					});
				}));

			assertThat(elapsed).isBetween(Duration.ofMillis(600), Duration.ofMillis(1_700));
			assertThat(stalling.connections()).isEqualTo(1);
		}
		wireMock.verify(1, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer ya29.refused")));
	}

	@Test
	@Timeout(20)
	void concurrentRequestsShareOneTokenFetch() throws Exception {
		wireMock.stubFor(post("/token").willReturn(okJson(
				"{\"access_token\":\"" + TOKEN + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")
			.withFixedDelay(300)));
		RestClient client = restClient(this.loader.load(resource(), null));

		List<Integer> statuses = concurrently(8, () -> client.post()
			.uri(SANITIZE_PATH)
			.body("{}")
			.retrieve()
			.toBodilessEntity()
			.getStatusCode()
			.value());

		assertThat(statuses).hasSize(8).containsOnly(200);
		wireMock.verify(1, postRequestedFor(urlEqualTo("/token")));
		wireMock.verify(8, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer " + TOKEN)));
	}

	@Test
	@Timeout(20)
	void concurrentRequestsWaitingOnAStalledEndpointOpenOneConnectionAndEachEndAtItsDeadline() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			RestClient client = restClient(stalledCredentials(stalling));

			List<Duration> waits = concurrently(8, () -> timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> requestWithDeadline(client, Duration.ofMillis(400)).body("{}").retrieve().toBodilessEntity())
				.withCauseInstanceOf(TokenUnavailableException.class)));

			assertThat(waits).hasSize(8).allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ofMillis(350),
					Duration.ofMillis(2_000)));
			assertThat(stalling.connections()).isEqualTo(1);
		}
	}

	@Test
	void aTokenAtHandIsUsedEvenWhenTheDeadlineHasPassed() {
		RestClient client = restClient(this.loader.load(resource(), null));
		client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity();

		int status = requestWithDeadline(client, Duration.ZERO).body("{}")
			.retrieve()
			.toBodilessEntity()
			.getStatusCode()
			.value();

		assertThat(status).isEqualTo(200);
		wireMock.verify(2, postRequestedFor(urlEqualTo(SANITIZE_PATH)).withHeader("Authorization",
				equalTo("Bearer " + TOKEN)));
	}

	@Test
	void aClosedInterceptorFailsAtOnceWhenItHasNoToken() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			GoogleCredentialsInterceptor interceptor = new GoogleCredentialsInterceptor(stalledCredentials(stalling));
			RestClient client = restClient(interceptor);
			interceptor.close();

			Duration elapsed = timed(() -> assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> client.post().uri(SANITIZE_PATH).body("{}").retrieve().toBodilessEntity())
				.withCauseInstanceOf(TokenUnavailableException.class));

			assertThat(elapsed).isLessThan(Duration.ofSeconds(2));
		}
	}

	@Test
	void aMaxWaitThatIsNotPositiveIsRefused() {
		GoogleCredentials credentials = this.loader.load(resource(), null);
		assertThatIllegalArgumentException().isThrownBy(() -> new GoogleCredentialsInterceptor(credentials, Duration.ZERO))
			.withMessage("maxWait must be positive but was PT0S");
	}

	private static <T> List<T> concurrently(int callers, Callable<T> call) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(callers);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				futures.add(pool.submit(() -> {
					start.await();
					return call.call();
				}));
			}
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(15, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private void assertNoSecretInChain(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			assertThat(String.valueOf(t.getMessage())).doesNotContain(TOKEN)
				.doesNotContain("PRIVATE KEY")
				.doesNotContain(this.account.privateKeyFragment())
				.doesNotContain("assertion=");
		}
	}

	private ByteArrayResource resource() {
		return new ByteArrayResource(this.account.bytes());
	}

	private RestClient restClient(Credentials credentials) {
		return restClient(new GoogleCredentialsInterceptor(credentials));
	}

	private RestClient restClient(GoogleCredentialsInterceptor interceptor) {
		this.interceptors.add(interceptor);
		return RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory())
			.baseUrl(wireMock.baseUrl())
			.requestInterceptor(interceptor)
			.build();
	}

	/** A sanitize request carrying a call's deadline, as {@code ModelArmorTemplate} sends it. */
	private static RestClient.RequestBodySpec requestWithDeadline(RestClient client, Duration deadline) {
		return RequestDeadline.carry(client.post().uri(SANITIZE_PATH), RetryDeadline.startingNow(Clock.systemUTC(), deadline));
	}

	private GoogleCredentials stalledCredentials(StallingTokenEndpoint endpoint) {
		TestServiceAccount stalled = TestServiceAccount.create(endpoint.tokenUri());
		return this.loader.load(new ByteArrayResource(stalled.bytes()), null);
	}

	private static Duration timed(Runnable action) {
		long started = System.nanoTime();
		action.run();
		return Duration.ofNanos(System.nanoTime() - started);
	}

	/**
	 * Credentials that answer fixed headers, to see that all of them are passed on. Not OAuth2: the
	 * interceptor asks them through {@link Credentials}' own asynchronous default, which calls the
	 * blocking method on the interceptor's executor.
	 */
	private static final class FixedCredentials extends Credentials {

		private final Map<String, List<String>> metadata;

		FixedCredentials(Map<String, List<String>> metadata) {
			this.metadata = metadata;
		}

		@Override
		public String getAuthenticationType() {
			return "fixed";
		}

		@Override
		public Map<String, List<String>> getRequestMetadata(java.net.URI uri) {
			return this.metadata;
		}

		@Override
		public boolean hasRequestMetadata() {
			return true;
		}

		@Override
		public boolean hasRequestMetadataOnly() {
			return true;
		}

		@Override
		public void refresh() {
		}

	}

}
