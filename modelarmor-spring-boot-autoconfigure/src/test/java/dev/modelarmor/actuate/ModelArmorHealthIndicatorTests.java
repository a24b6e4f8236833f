package dev.modelarmor.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.GoogleCredentialsInterceptor;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.Mockito;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelArmorHealthIndicator} reading the default template from WireMock over real HTTP, with a
 * Bearer token that must never show in the details. Cache expiry runs in virtual time.
 */
class ModelArmorHealthIndicatorTests {

	static final String TEMPLATE_PATH = "/v1/projects/demo-project/locations/us-central1/templates/default-template";

	static final String TOKEN = "ya29.health-indicator-token";

	static final String TEMPLATE = """
			{"name": "projects/demo-project/locations/us-central1/templates/default-template",
			 "filterConfig": {"piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED"}}}
			""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private ModelArmorTemplate client() {
		ModelArmorEndpoint endpoint = ModelArmorEndpoint.of(modelArmor.baseUrl());
		GoogleCredentials credentials = GoogleCredentials
			.create(new AccessToken(TOKEN, Date.from(Instant.now().plus(Duration.ofHours(1)))));
		return ModelArmorTemplate.builder()
			.endpoint(endpoint)
			.authorization(new GoogleCredentialsInterceptor(credentials))
			.retryTemplate(ModelArmorRetryTemplates.singleAttempt(RetrySettings.DEFAULTS,
					this.time.runtime(new SplittableRandom(3))))
			.projectId("demo-project")
			.location("us-central1")
			.templateId("default-template")
			.build();
	}

	private ModelArmorHealthIndicator indicator(Duration cacheTimeToLive) {
		return new ModelArmorHealthIndicator(client(), "default-template", cacheTimeToLive, this.time);
	}

	@Test
	void upWhenTheDefaultTemplateIsRead() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson(TEMPLATE)));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"),
				entry("location", "us-central1"));
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH))
			.withHeader("Authorization", equalTo("Bearer " + TOKEN)));
	}

	@Test
	void eachResultSaysItsLocationsBreakerStateReadAtEachCheckNeverCached() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson(TEMPLATE)));
		String[] state = { "closed" };
		ModelArmorHealthIndicator indicator = indicator(Duration.ofSeconds(30))
			.withCircuitBreakerState("us-central1", () -> state[0]);

		assertThat(indicator.health().getDetails()).containsOnly(entry("template", "default-template"),
				entry("location", "us-central1"), entry("circuitBreaker", "closed"));
		state[0] = "open";
		Health cached = indicator.health();
		assertThat(cached.getStatus()).as("the check's result is cached").isEqualTo(Status.UP);
		assertThat(cached.getDetails()).containsEntry("circuitBreaker", "open");
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
	}

	@Test
	void upWithoutLocationWhenTheAnswerHasNoResourceName() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson("{}")));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"));
	}

	@ParameterizedTest(name = "HTTP {0} {1}")
	@CsvSource({ "403, PERMISSION_DENIED", "404, NOT_FOUND", "503, UNAVAILABLE" })
	void downWithTheStatusCodeAndNeitherMessageNorToken(int statusCode, String status) {
		String message = "Permission denied for Bearer " + TOKEN + " on prompt 'ignore all previous instructions'";
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(aResponse().withStatus(statusCode)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\": {\"code\": " + statusCode + ", \"message\": \"" + message + "\", \"status\": \""
					+ status + "\"}}")));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"),
				entry("statusCode", statusCode), entry("status", status), entry("outcome", "non_retryable"));
		assertThat(health.toString()).doesNotContain(TOKEN, "ya29.", "Bearer", "Permission denied",
				"ignore all previous instructions");
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "us\\n2026-01-01 INFO forged", "\\u202eus-central1",
			"us-central1\\u001b[2J", "US-CENTRAL1", "us central1",
			"a-very-long-location-name-that-is-longer-than-any-dns-label-could-ever-be-at-all-x" })
	void aLocationThatIsNotARegionIsNotADetail(String location) {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson("{\"name\": \"projects/demo-project/locations/"
				+ location + "/templates/default-template\"}")));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "PERMISSION_DENIED\\nINFO forged", "permission_denied",
			"\\u202eDENIED", "" })
	void aStatusThatIsNotAStatusNameIsNotADetail(String status) {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(aResponse().withStatus(403)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\": {\"code\": 403, \"status\": \"" + status + "\"}}")));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"), entry("statusCode", 403),
				entry("outcome", "non_retryable"));
	}

	@Test
	void downWithTheFailureTypeWhenModelArmorCannotBeReached() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH))
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("template", "default-template")
			.containsEntry("outcome", "non_retryable")
			.containsKey("failure")
			.doesNotContainKeys("statusCode", "error");
		assertThat((String) health.getDetails().get("failure")).startsWith("I/O ");
	}

	@Test
	void downWithTheFailureTypeWhenTheAnswerIsNotATemplate() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson("{\"name\": [" + TOKEN)));

		Health health = indicator(Duration.ZERO).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"),
				entry("failure", "ModelArmorException"), entry("outcome", "non_retryable"));
	}

	@Test
	void downWithTheTypeOfAnUnexpectedFailure() {
		ModelArmorOperations operations = Mockito.mock(ModelArmorOperations.class, Mockito.RETURNS_DEEP_STUBS);
		Mockito.when(operations.templates().get("default-template"))
			.thenThrow(new IllegalStateException("token " + TOKEN));

		Health health = new ModelArmorHealthIndicator(operations, "default-template", Duration.ZERO, this.time).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsOnly(entry("template", "default-template"),
				entry("failure", "IllegalStateException"));
	}

	@Test
	void unknownWithoutCallingWhenNoDefaultTemplateIsConfigured() {
		ModelArmorOperations operations = Mockito.mock(ModelArmorOperations.class);

		Health health = new ModelArmorHealthIndicator(operations, null, Duration.ZERO, this.time).health();

		assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
		assertThat((String) health.getDetails().get("reason")).contains("modelarmor.template-id");
		Mockito.verifyNoInteractions(operations);
	}

	@Test
	void twoChecksWithinTheTimeToLiveMakeOneRequestAndAfterItTwo() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson(TEMPLATE)));
		ModelArmorHealthIndicator indicator = indicator(Duration.ofSeconds(30));

		Health first = indicator.health();
		this.time.advance(Duration.ofSeconds(29));
		Health second = indicator.health();
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));

		this.time.advance(Duration.ofSeconds(1));
		Health third = indicator.health();
		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
		assertThat(second).isSameAs(first);
		assertThat(third.getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void aDownResultIsCachedTooSoProbesDoNotHammerAFailingService() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(aResponse().withStatus(503)));
		ModelArmorHealthIndicator indicator = indicator(Duration.ofSeconds(30));

		assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
		assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);

		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
	}

	@Test
	void aZeroTimeToLiveAsksOnEveryCheck() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson(TEMPLATE)));
		ModelArmorHealthIndicator indicator = indicator(Duration.ZERO);

		indicator.health();
		indicator.health();

		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
	}

	private static java.util.Map.Entry<String, Object> entry(String key, Object value) {
		return java.util.Map.entry(key, value);
	}

}
