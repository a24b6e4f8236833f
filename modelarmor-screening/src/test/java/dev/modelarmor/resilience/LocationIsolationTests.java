package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.observation.internal.MicrometerResilienceObserver;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two locations of one client over real HTTP (WireMock on loopback), the retry waits in virtual time: tenants
 * in us-central1 and europe-west4 share the client, and europe-west4 fails (503, connections reset, an answer
 * that is not JSON, an answer that never comes). Every call to us-central1 succeeds at its first attempt;
 * europe-west4's calls fail, then fail fast once its breaker opens (garbage is an answer: its calls fail
 * closed at once, without retries), and it recovers alone.
 */
class LocationIsolationTests {

	private static final String NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\"}}";

	private static final String US = "us-central1";

	private static final String EU = "europe-west4";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private final RetryRuntime runtime = this.time.runtime(new SplittableRandom(7));

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
			new CircuitBreakerSettings(50, 4, Duration.ofSeconds(10), 1, Duration.ofMillis(100)), this.time);

	private ModelArmorTemplate client() {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(RetrySettings.DEFAULTS.withBudget(RetryBudgetSettings.DEFAULTS))
			.retryRuntime(this.runtime)
			.timeouts(new HttpTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300)))
			.attemptGate(new ResilienceGate(this.breaker, null,
					new MicrometerResilienceObserver(this.meters, java.util.Set.of("t"))))
			.projectId("p")
			.templateId("t")
			.build();
	}

	@ParameterizedTest(name = "europe-west4 {0}")
	@ValueSource(strings = { "503", "reset", "garbage", "hang" })
	void aFailingLocationNeverRefusesDelaysOrSpendsTheRetriesOfAnother(String fault) {
		modelArmor.stubFor(post(urlPathMatching(".*/locations/" + US + "/.*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		modelArmor.stubFor(post(urlPathMatching(".*/locations/" + EU + "/.*:sanitizeUserPrompt")).willReturn(failing(fault)));
		try (ModelArmorTemplate client = client()) {
			ModelArmorTemplate us = client.withTemplate(TemplateReference.of("t", US));
			ModelArmorTemplate eu = client.withTemplate(TemplateReference.of("t", EU));
			for (int call = 0; call < 12; call++) {
				assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> eu.sanitizeUserPrompt("hi"));
				long before = this.time.millis();
				assertThat(us.sanitizeUserPrompt("hi")).as("call %d to us-central1 answered", call).isNotNull();
				assertThat(this.time.millis()).as("no wait before a call to us-central1").isEqualTo(before);
			}
			modelArmor.verify(12, postRequestedFor(urlPathMatching(".*/locations/" + US + "/.*")));
			assertThat(this.breaker.state(US)).isEqualTo("closed");
			if (!fault.equals("garbage")) {
				assertThat(this.breaker.state(EU)).isEqualTo("open");
				int sent = modelArmor.findAll(postRequestedFor(urlPathMatching(".*/locations/" + EU + "/.*"))).size();
				assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> eu.sanitizeUserPrompt("hi"))
					.satisfies((ex) -> {
						assertThat(ex.outcome()).contains(CallOutcome.CIRCUIT_OPEN);
						assertThat(ex.attempts()).isZero();
					});
				assertThat(modelArmor.findAll(postRequestedFor(urlPathMatching(".*/locations/" + EU + "/.*"))))
					.as("no request while its breaker is open").hasSize(sent);
			}
			assertThat(this.meters.counter(MicrometerResilienceObserver.HTTP_ATTEMPTS, "operation", "sanitize_user_prompt",
					"template", "t", "location", US, "status", "200").count()).isEqualTo(12);

			// europe-west4 recovers: after the breaker's wait, its probe closes it
			modelArmor.stubFor(post(urlPathMatching(".*/locations/" + EU + "/.*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
			this.time.advance(Duration.ofSeconds(10));
			assertThat(eu.sanitizeUserPrompt("hi")).isNotNull();
			assertThat(this.breaker.state(EU)).isEqualTo("closed");
			assertThat(us.sanitizeUserPrompt("hi")).isNotNull();
		}
	}

	private static ResponseDefinitionBuilder failing(String fault) {
		return switch (fault) {
			case "503" -> aResponse().withStatus(503);
			case "reset" -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER);
			case "garbage" -> aResponse().withStatus(200).withHeader("Content-Type", "application/json")
				.withBody("<html>\u0000not json at all");
			case "hang" -> okJson(NO_MATCH).withFixedDelay(1_500);
			default -> throw new IllegalArgumentException(fault);
		};
	}

}
