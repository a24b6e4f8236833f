package dev.modelarmor.client;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every attempt of a call carries the call's deadline through the {@code RestClient} to its transport
 * ({@link RequestDeadline}): what cuts the attempt's read timeout to what is left of it, with or without
 * the application's interceptors in between.
 */
class DeadlineAttributeTests {

	static final String PROMPT_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt";

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}
			""";

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	final VirtualTime time = new VirtualTime();

	final List<Optional<Object>> seen = new CopyOnWriteArrayList<>();

	final ClientHttpRequestInterceptor recording = (request, body, execution) -> {
		this.seen.add(Optional.ofNullable(RequestDeadline.of(request)));
		return execution.execute(request, body);
	};

	@Test
	void everyAttemptCarriesTheSameDeadlineOfItsCall() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).inScenario("retry")
			.whenScenarioStateIs(STARTED)
			.willReturn(aResponse().withStatus(503))
			.willSetStateTo("answered"));
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).inScenario("retry")
			.whenScenarioStateIs("answered")
			.willReturn(okJson(NO_MATCH)));

		template(ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, this.time.runtime(new SplittableRandom(1))))
			.sanitizeUserPrompt("hello");

		assertThat(this.seen).hasSize(2);
		assertThat(this.seen.get(0)).containsInstanceOf(RetryDeadline.class);
		RetryDeadline deadline = (RetryDeadline) this.seen.get(0).orElseThrow();
		assertThat(deadline.expiry()).isEqualTo(VirtualTime.DEFAULT_START.plus(RetrySettings.DEFAULTS.deadline()));
		assertThat(this.seen.get(1)).containsSame(deadline);
	}

	@Test
	void eachCallHasItsOwnDeadline() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));
		ModelArmorTemplate template = template(
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, this.time.runtime(new SplittableRandom(1))));

		template.sanitizeUserPrompt("first");
		this.time.advance(java.time.Duration.ofSeconds(5));
		template.sanitizeUserPrompt("second");

		assertThat(this.seen).hasSize(2).allSatisfy((attribute) -> assertThat(attribute).isPresent());
		RetryDeadline first = (RetryDeadline) this.seen.get(0).orElseThrow();
		RetryDeadline second = (RetryDeadline) this.seen.get(1).orElseThrow();
		assertThat(second.expiry()).isEqualTo(first.expiry().plusSeconds(5));
	}

	@Test
	void aRetryTemplateWithoutTheStartersDeadlineSetsNone() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));

		template(new RetryTemplate()).sanitizeUserPrompt("hello");

		assertThat(this.seen).containsExactly(Optional.empty());
	}

	private ModelArmorTemplate template(RetryTemplate retryTemplate) {
		ModelArmorEndpoint endpoint = ModelArmorEndpoint.of(wireMock.baseUrl());
		RestClient restClient = ModelArmorRestClients.create(RestClient.builder(), endpoint,
				new DeadlineBoundedRequestFactory(HttpTimeouts.DEFAULTS),
				this.recording, null);
		return new ModelArmorTemplate(restClient, retryTemplate, endpoint, "p", "l", "t");
	}

}
