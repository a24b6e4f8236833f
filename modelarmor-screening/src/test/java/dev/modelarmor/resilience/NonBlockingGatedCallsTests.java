package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.observation.internal.MicrometerResilienceObserver;
import dev.modelarmor.resilience.GatedCallsTests.CountingBucket;
import dev.modelarmor.retry.CallOutcome;
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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The gate on the client's non-blocking path, over real HTTP (WireMock on loopback): the breaker and the
 * quota limiter decide as on the blocking path ({@link GatedCallsTests}), a permit due later is waited for
 * on the retry timer rather than on a thread, and a call cancelled while it waits gives its permit back and
 * frees the breaker's half-open probe, which would otherwise stay taken and keep the breaker from closing.
 */
class NonBlockingGatedCallsTests {

	private static final String NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", \"invocationResult\": \"SUCCESS\"}}";

	private static final String SANITIZE = ".*:sanitizeUserPrompt";

	/** The non-blocking path must not use the executor: any task given to it fails the test. */
	private static final Executor NEVER = (task) -> {
		throw new AssertionError("the non-blocking path ran a task on the fallback executor");
	};

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final MicrometerResilienceObserver observer = new MicrometerResilienceObserver(this.meters,
			java.util.Set.of("t"));

	private ModelArmorTemplate client(ResilienceGate gate, RetryRuntime runtime) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(RetrySettings.DEFAULTS)
			.retryRuntime(runtime)
			.attemptGate(gate)
			.projectId("p")
			.templateId("t")
			.build();
	}

	private static CompletableFuture<SanitizationResult> screen(ModelArmorTemplate client) {
		return client.sanitizeUserPromptAsync(DataItem.text("hi"), SanitizeOptions.NONE, NEVER);
	}

	private static ModelArmorException failureOf(CompletableFuture<SanitizationResult> call) {
		assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(ModelArmorException.class);
		return (ModelArmorException) call.handle((ok, failure) -> failure.getCause() != null ? failure.getCause()
				: failure).join();
	}

	@Test
	void anOutageOpensTheBreakerThenCallsFailAtOnceWithoutARequestAndAProbeClosesIt() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(aResponse().withStatus(503)));
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
				new CircuitBreakerSettings(50, 4, Duration.ofSeconds(10), 1), this.time);
		try (ModelArmorTemplate client = client(new ResilienceGate(breaker, null, this.observer),
				this.time.runtime(new SplittableRandom(7)))) {
			// the breaker counts calls: three calls keep Google's retries to their deadline (six attempts each)
			for (int call = 0; call < 3; call++) {
				ModelArmorException failed = failureOf(screen(client));
				assertThat(failed.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
				assertThat(failed.attempts()).isEqualTo(6);
			}
			assertThat(breaker.state()).isEqualTo("closed");
			ModelArmorException opened = failureOf(screen(client));
			assertThat(opened.outcome()).contains(CallOutcome.CIRCUIT_OPEN);
			assertThat(opened.attempts()).isEqualTo(1);
			assertThat(breaker.state()).isEqualTo("open");

			ModelArmorException whileOpen = failureOf(screen(client));
			assertThat(whileOpen.outcome()).contains(CallOutcome.CIRCUIT_OPEN);
			assertThat(whileOpen.attempts()).isZero();
			assertThat(modelArmor.getAllServeEvents()).as("no request while open").hasSize(19);

			modelArmor.resetAll();
			modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
			this.time.advance(Duration.ofSeconds(10));
			assertThat(screen(client).get(30, TimeUnit.SECONDS).verdict()).isEqualTo(SanitizationResult.Verdict.NO_MATCH);
			assertThat(breaker.state()).as("the probe succeeded").isEqualTo("closed");
		}
		assertThat(this.meters.counter(MicrometerResilienceObserver.REFUSED, "operation", "sanitize_user_prompt",
				"template", "t", "location", "us-central1", "outcome", "circuit_open").count()).isEqualTo(2);
	}

	@Test
	void aPermitDueLaterIsWaitedForAndOneDueTooLateIsRefusedUnsentAndGivenBack() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		CountingBucket bucket = new CountingBucket();
		bucket.dueIn = Duration.ofMillis(500).toNanos();
		QuotaLimiter quota = new QuotaLimiter(bucket,
				new QuotaSettings(120, Duration.ofSeconds(2), Duration.ofMillis(100)), this.time.runtime(new SplittableRandom(7)));
		try (ModelArmorTemplate client = client(new ResilienceGate(null, quota, this.observer),
				this.time.runtime(new SplittableRandom(7)))) {
			assertThat(screen(client).get(30, TimeUnit.SECONDS).verdict()).isEqualTo(SanitizationResult.Verdict.NO_MATCH);
			assertThat(this.time.sleeps()).as("the wait for the permit, on the timer").containsExactly(Duration.ofMillis(500));
			assertThat(bucket.refunded).isZero();

			bucket.dueIn = Duration.ofSeconds(3).toNanos();
			ModelArmorException refused = failureOf(screen(client));
			assertThat(refused.outcome()).contains(CallOutcome.QUOTA_EXHAUSTED);
			assertThat(refused.attempts()).isZero();
			assertThat(bucket.refunded).as("a permit not waited for is given back").isEqualTo(1);
			assertThat(modelArmor.getAllServeEvents()).as("a refused attempt is not sent").hasSize(1);
		}
		assertThat(this.meters.timer(MicrometerResilienceObserver.QUOTA_WAIT, "template", "t", "location", "us-central1", "result", "granted")
			.count()).isEqualTo(1);
		assertThat(this.meters.timer(MicrometerResilienceObserver.QUOTA_WAIT, "template", "t", "location", "us-central1", "result", "refused")
			.count()).isEqualTo(1);
	}

	@Test
	void aCallCancelledWhileWaitingForAPermitGivesItBackAndFreesTheHalfOpenProbe() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
				new CircuitBreakerSettings(50, 4, Duration.ofSeconds(10), 1), this.time);
		for (int i = 0; i < 4; i++) {
			ModelArmorCircuitBreaker.Call permission = breaker.start("us-central1");
			assertThat(permission).isNotNull();
			permission.attemptEnded("503");
		}
		assertThat(breaker.state()).isEqualTo("open");
		// past the wait in the open state (the breaker half-opens strictly after it)
		this.time.advance(Duration.ofSeconds(11));
		CountingBucket bucket = new CountingBucket();
		bucket.dueIn = Duration.ofSeconds(5).toNanos();
		// real time for the waits, so that the call is still waiting for its permit when it is cancelled
		QuotaLimiter quota = new QuotaLimiter(bucket,
				new QuotaSettings(120, Duration.ofSeconds(10), Duration.ofMillis(100)), RetryRuntime.system());
		try (ModelArmorTemplate client = client(new ResilienceGate(breaker, quota, this.observer),
				RetryRuntime.system())) {
			CompletableFuture<SanitizationResult> waiting = screen(client);
			await().atMost(Duration.ofSeconds(10)).until(() -> bucket.reserved == 1);
			assertThat(waiting.cancel(true)).isTrue();
			await().atMost(Duration.ofSeconds(10)).until(() -> bucket.refunded == 1);

			bucket.dueIn = 0;
			assertThat(screen(client).get(30, TimeUnit.SECONDS).verdict()).as("the probe was free again")
				.isEqualTo(SanitizationResult.Verdict.NO_MATCH);
			assertThat(breaker.state()).isEqualTo("closed");
		}
		assertThat(modelArmor.getAllServeEvents()).as("the cancelled call was never sent").hasSize(1);
	}

}
