package dev.modelarmor.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The call's deadline reaches what needs it as a value: the token fetch is given what is left of it as its
 * limit, on both paths, and the transport sees the very deadline the retry strategy started, on every attempt,
 * shrinking by the waits between them.
 */
class DeadlineAsAValueTests {

	static final String PROMPT_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt";

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}
			""";

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	final VirtualTime time = new VirtualTime();

	/** What each token fetch was given as its limit. */
	final List<Duration> tokenLimits = new CopyOnWriteArrayList<>();

	/** The deadline each exchange carried to the transport, as an application's interceptor sees it. */
	final List<@Nullable RetryDeadline> carried = new CopyOnWriteArrayList<>();

	@Test
	void theTokenFetchAndTheTransportAreGivenTheCallsDeadline() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).inScenario("retry")
			.whenScenarioStateIs(STARTED)
			.willReturn(aResponse().withStatus(503))
			.willSetStateTo("answered"));
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).inScenario("retry")
			.whenScenarioStateIs("answered")
			.willReturn(okJson(NO_MATCH)));

		template().sanitizeUserPrompt("hello");

		Duration waited = this.time.sleeps().get(0);
		assertThat(this.time.sleeps()).hasSize(1);
		// the deadline runs from the first attempt: all of it for the first token, less the wait for the second
		assertThat(this.tokenLimits).containsExactly(RetrySettings.DEFAULTS.deadline(),
				RetrySettings.DEFAULTS.deadline().minus(waited));
		assertThat(this.carried).hasSize(2).doesNotContainNull();
		RetryDeadline deadline = this.carried.get(0);
		assertThat(deadline.expiry()).isEqualTo(VirtualTime.DEFAULT_START.plus(RetrySettings.DEFAULTS.deadline()));
		assertThat(this.carried.get(1)).isSameAs(deadline);
	}

	@Test
	void theNonBlockingPathGivesTheTokenFetchTheCallsDeadline() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));

		template().sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, Runnable::run).join();

		assertThat(this.tokenLimits).containsExactly(RetrySettings.DEFAULTS.deadline());
		// the non-blocking exchange is the transport's own, past any RestClient interceptor
		assertThat(this.carried).isEmpty();
	}

	private ModelArmorTemplate template() {
		ClientHttpRequestInterceptor recording = (request, body, execution) -> {
			this.carried.add(RequestDeadline.of(request));
			return execution.execute(request, body);
		};
		return ModelArmorTemplate.builder()
			.restClientBuilder(RestClient.builder().requestInterceptor(recording))
			.endpoint(ModelArmorEndpoint.of(wireMock.baseUrl()))
			.authorization(new RecordingAuthorization())
			.retryRuntime(this.time.runtime(new SplittableRandom(1)))
			.projectId("p")
			.location("l")
			.templateId("t")
			.build();
	}

	/** An authorization that hands a token at once and records the limit each fetch was given. */
	final class RecordingAuthorization implements ClientHttpRequestInterceptor, NonBlockingAuthorization {

		@Override
		public CompletableFuture<Map<String, List<String>>> headersFor(URI uri, Duration limit) {
			DeadlineAsAValueTests.this.tokenLimits.add(limit);
			return CompletableFuture.completedFuture(Map.of("Authorization", List.of("Bearer test")));
		}

		@Override
		public CompletableFuture<Map<String, List<String>>> refreshedHeadersFor(URI uri, Duration limit) {
			return headersFor(uri, limit);
		}

		@Override
		public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
				throws IOException {
			throw new IllegalStateException("the attempt step authorizes a non-blocking authorization itself");
		}

	}

}
