package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.observation.internal.MicrometerResilienceObserver;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The gate in the real client over real HTTP (WireMock on loopback), the retry waits in virtual time: the
 * breaker opens on 5xx and then fails calls without an HTTP request, half-open probes close it, a 400 never
 * opens it; every attempt, retries included, takes a quota permit; the meters show each attempt's status.
 */
class GatedCallsTests {

	private static final String NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\"}}";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private final RetryRuntime runtime = this.time.runtime(new SplittableRandom(7));

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final MicrometerResilienceObserver observer = new MicrometerResilienceObserver(this.meters,
			java.util.Set.of("t"));

	private ModelArmorTemplate client(ResilienceGate gate) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(RetrySettings.DEFAULTS)
			.retryRuntime(this.runtime)
			.attemptGate(gate)
			.projectId("p")
			.templateId("t")
			.build();
	}

	@Test
	void anOutageOpensTheBreakerThenCallsFailAtOnceWithoutARequestAndProbesCloseIt() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(aResponse().withStatus(503)));
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
				new CircuitBreakerSettings(50, 4, Duration.ofSeconds(10), 1), this.time);
		try (ModelArmorTemplate client = client(new ResilienceGate(breaker, null, this.observer))) {
			// the breaker counts calls: three calls keep Google's retries to their deadline (six attempts each)
			for (int call = 0; call < 3; call++) {
				assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hi"))
					.satisfies((ex) -> {
						assertThat(ex.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
						assertThat(ex.attempts()).isEqualTo(6);
					});
			}
			assertThat(breaker.state()).isEqualTo("closed");
			// the fourth failed call fills the window: its retry is refused
			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hi"))
				.satisfies((ex) -> {
					assertThat(ex.outcome()).contains(CallOutcome.CIRCUIT_OPEN);
					assertThat(ex.attempts()).isEqualTo(1);
				});
			assertThat(breaker.state()).isEqualTo("open");
			assertThat(modelArmor.getAllServeEvents()).hasSize(19);

			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hi"))
				.satisfies((ex) -> {
					assertThat(ex.outcome()).contains(CallOutcome.CIRCUIT_OPEN);
					assertThat(ex.attempts()).isZero();
				});
			assertThat(modelArmor.getAllServeEvents()).as("no request while open").hasSize(19);

			modelArmor.resetAll();
			modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
			this.time.advance(Duration.ofSeconds(10));
			client.sanitizeUserPrompt("hi");
			assertThat(breaker.state()).as("the probe succeeded").isEqualTo("closed");
		}
		assertThat(this.meters.counter(MicrometerResilienceObserver.HTTP_ATTEMPTS, "operation", "sanitize_user_prompt",
				"template", "t", "location", "us-central1", "status", "503").count()).isEqualTo(19);
		assertThat(this.meters.counter(MicrometerResilienceObserver.REFUSED, "operation", "sanitize_user_prompt",
				"template", "t", "location", "us-central1", "outcome", "circuit_open").count()).isEqualTo(2);
	}

	@Test
	void theCallersOwnMistakesNeverOpenTheBreaker() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(aResponse().withStatus(400)));
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
				new CircuitBreakerSettings(50, 4, Duration.ofSeconds(10), 1), this.time);
		try (ModelArmorTemplate client = client(new ResilienceGate(breaker, null, this.observer))) {
			for (int i = 0; i < 10; i++) {
				assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hi"))
					.satisfies((ex) -> assertThat(ex.outcome()).contains(CallOutcome.NON_RETRYABLE));
			}
		}
		assertThat(breaker.state()).isEqualTo("closed");
		assertThat(modelArmor.getAllServeEvents()).hasSize(10);
	}

	@Test
	void everyAttemptTakesAPermitAndA429ThenASuccessShowsBoth() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("429")
			.whenScenarioStateIs(STARTED)
			.willReturn(aResponse().withStatus(429))
			.willSetStateTo("ok"));
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("429")
			.whenScenarioStateIs("ok")
			.willReturn(okJson(NO_MATCH)));
		CountingBucket bucket = new CountingBucket();
		QuotaLimiter quota = new QuotaLimiter(bucket, new QuotaSettings(120, Duration.ZERO, Duration.ofMillis(100)),
				this.runtime);
		try (ModelArmorTemplate client = client(new ResilienceGate(null, quota, this.observer))) {
			client.sanitizeUserPrompt("hi");
			assertThat(modelArmor.getAllServeEvents()).hasSize(2);
			assertThat(bucket.reserved).as("the retry took a permit too").isEqualTo(2);
			bucket.dueIn = Duration.ofSeconds(1).toNanos();
			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hi"))
				.satisfies((ex) -> {
					assertThat(ex.outcome()).contains(CallOutcome.QUOTA_EXHAUSTED);
					assertThat(ex.attempts()).isZero();
				});
			assertThat(modelArmor.getAllServeEvents()).as("a refused attempt is not sent").hasSize(2);
			assertThat(bucket.refunded).isEqualTo(1);
		}
		assertThat(this.meters.counter(MicrometerResilienceObserver.HTTP_ATTEMPTS, "operation", "sanitize_user_prompt",
				"template", "t", "location", "us-central1", "status", "429").count()).isEqualTo(1);
		assertThat(this.meters.counter(MicrometerResilienceObserver.HTTP_ATTEMPTS, "operation", "sanitize_user_prompt",
				"template", "t", "location", "us-central1", "status", "200").count()).isEqualTo(1);
		assertThat(this.meters.timer(MicrometerResilienceObserver.QUOTA_WAIT, "template", "t", "location", "us-central1", "result", "refused")
			.count()).isEqualTo(1);
	}

	/** Counts reservations; each is due after {@link #dueIn}. Read by tests while calls run on other threads. */
	static final class CountingBucket implements QuotaBucket {

		volatile int reserved;

		volatile int refunded;

		volatile long dueIn;

		@Override
		public Reservation reserve() {
			this.reserved++;
			long wait = this.dueIn;
			return new Reservation() {

				@Override
				public long waitNanos() {
					return wait;
				}

				@Override
				public void refund() {
					CountingBucket.this.refunded++;
				}

			};
		}

	}

	@Test
	void anUnconfiguredTemplateIsTaggedOther() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		try (ModelArmorTemplate client = client(new ResilienceGate(null, null, this.observer))) {
			client.withTemplate("invented-1").sanitizeUserPrompt("hi");
			client.withTemplate("invented-2").sanitizeUserPrompt("hi");
		}
		assertThat(this.meters.find(MicrometerResilienceObserver.HTTP_ATTEMPTS).counters()).hasSize(1);
		assertThat(this.meters.counter(MicrometerResilienceObserver.HTTP_ATTEMPTS, "operation", "sanitize_user_prompt",
				"template", "other", "location", "us-central1", "status", "200").count()).isEqualTo(2);
	}

	@Test
	void theRetryBudgetForgetsAStormOnceItsWindowHasPassed() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(0.2, 10, Duration.ofSeconds(10)), this.time);
		while (budget.tryRetry("us-central1", false)) {
			// spend it
		}
		assertThat(budget.tokens("us-central1")).isZero();
		this.time.advance(Duration.ofSeconds(9));
		assertThat(budget.tryRetry("us-central1", false)).as("the storm is still in the window").isFalse();
		this.time.advance(Duration.ofSeconds(1));
		assertThat(budget.tokens("us-central1")).as("a quiet window gives the floor back").isEqualTo(100.0);
	}

}
