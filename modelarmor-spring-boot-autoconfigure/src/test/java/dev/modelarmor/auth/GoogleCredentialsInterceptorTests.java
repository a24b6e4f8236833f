package dev.modelarmor.auth;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

	private static RestClient restClient(Credentials credentials) {
		return RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory())
			.baseUrl(wireMock.baseUrl())
			.requestInterceptor(new GoogleCredentialsInterceptor(credentials))
			.build();
	}

	/** Credentials that answer fixed headers, to see that all of them are passed on. */
	private static final class FixedCredentials extends GoogleCredentials {

		private final Map<String, List<String>> metadata;

		FixedCredentials(Map<String, List<String>> metadata) {
			this.metadata = metadata;
		}

		@Override
		public Map<String, List<String>> getRequestMetadata(java.net.URI uri) {
			return this.metadata;
		}

	}

}
