package dev.modelarmor.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.auth.GoogleCredentialsInterceptor;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import dev.modelarmor.auth.StallingTokenEndpoint;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.retry.support.RetryTemplate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The access token counts against a call's deadline, end to end: a real {@link ModelArmorTemplate}, with a
 * real service-account key whose token endpoint is on loopback, and WireMock as Model Armor.
 *
 * <p>The stalled endpoint ({@link StallingTokenEndpoint}) accepts the connection and never answers. Before,
 * a call waited in google-auth's own fetch: 20 s HTTP timeout, three retries, 87 s in all against a 2 s
 * deadline. Now a call waits for its token at most what is left of its deadline, and the failure is an
 * ordinary retryable failure of the attempt, tagged {@code token_unavailable}.
 */
@ExtendWith(OutputCaptureExtension.class)
class TokenEndpointStallTests {

	static final String PROMPT_PATH = FaultMatrixTests.PROMPT_PATH;

	static final Duration DEADLINE = Duration.ofSeconds(2);

	static final RetrySettings TWO_SECOND_DEADLINE = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, DEADLINE, true,
			true);

	/** Far above the deadline: the deadline, not a timeout, must end the wait for a token. */
	static final HttpTimeouts LONG_TIMEOUTS = new HttpTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30));

	static final int RUNS = 50;

	static final int PARALLEL = 10;

	/**
	 * Loose, for a shared 2-core machine: what is left past the deadline is the wake-up of the waiting
	 * thread and the exception coming back, milliseconds when the machine is idle.
	 */
	static final Duration WORST_OVERSHOOT = Duration.ofSeconds(1);

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	final List<GoogleCredentialsInterceptor> interceptors = new ArrayList<>();

	final List<CallResult> calls = new CopyOnWriteArrayList<>();

	final List<String> failedAttempts = new CopyOnWriteArrayList<>();

	final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	@BeforeEach
	void modelArmorAnswers() {
		wireMock.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(FaultMatrixTests.NO_MATCH)));
	}

	@AfterEach
	void closeInterceptors() {
		this.interceptors.forEach(GoogleCredentialsInterceptor::close);
	}

	@Test
	@Timeout(30)
	void aCallEndsAtItsDeadlineWhileTheTokenEndpointStalls(CapturedOutput output) throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			ModelArmorTemplate template = template(stalling.tokenUri(), LONG_TIMEOUTS,
					ModelArmorRetryTemplates.retrying(TWO_SECOND_DEADLINE, RetryRuntime.system()));

			long started = System.nanoTime();
			assertThatExceptionOfType(ModelArmorException.class)
				.isThrownBy(() -> template.sanitizeUserPrompt(FaultMatrixTests.SECRET_PROMPT))
				.satisfies((ex) -> {
					assertThat(ex.getMessage())
						.isEqualTo("Model Armor could not be called: token unavailable (TimeoutException)");
					assertThat(ex.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
					// The first attempt waited for the token until the deadline; no retry fits after it.
					assertThat(ex.attempts()).isEqualTo(1);
				});
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

			assertThat(elapsed).isBetween(DEADLINE.minusMillis(100), DEADLINE.plus(WORST_OVERSHOOT));
			assertThat(stalling.connections()).isEqualTo(1);
		}
		wireMock.verify(0, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
		Timer requests = this.meters.get(MicrometerCallObserver.REQUESTS).timer();
		assertThat(requests.getId().getTag("status")).isEqualTo("token_unavailable");
		assertThat(requests.getId().getTag("outcome")).isEqualTo("deadline_exceeded");
		assertThat(requests.count()).isOne();
		assertThat(this.meters.get(MicrometerCallObserver.ATTEMPTS).summary().totalAmount()).isOne();
		// a call of the template itself: the retries' end is a DEBUG line, no WARN line
		assertThat(output.getOut().lines().filter((line) -> line.contains(" WARN ") && line.contains("not retrying")))
			.isEmpty();
	}

	/**
	 * The measurement of a stalled token endpoint: {@value #RUNS} calls, {@value #PARALLEL} at a time, each with a 2 s
	 * deadline, all waiting on the one stalled token request. Prints the overshoot past the deadline,
	 * counted from the start of the call to its exception.
	 *
	 * <p>One call without credentials warms up first: the first calls of a JVM spend about half a second
	 * loading and initialising Jackson, the JDK HttpClient and spring-retry before their deadline starts,
	 * which is not what this measures.
	 */
	@Test
	@Timeout(60)
	void fiftyCallsWhileTheTokenEndpointStallsEndWithinASecondOfTheirDeadline() throws Exception {
		ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(wireMock.baseUrl()))
			.timeouts(LONG_TIMEOUTS)
			.retryTemplate(ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, RetryRuntime.system()))
			.projectId("demo-project")
			.location("us-central1")
			.templateId("default-template")
			.build()
			.sanitizeUserPrompt("warm-up");
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			ModelArmorTemplate template = template(stalling.tokenUri(), LONG_TIMEOUTS,
					ModelArmorRetryTemplates.retrying(TWO_SECOND_DEADLINE, RetryRuntime.system()));

			List<Duration> overshoots = ReliabilityFixtures.withoutRetryLines(() -> concurrently(RUNS, PARALLEL, () -> {
				long started = System.nanoTime();
				try {
					template.sanitizeUserPrompt("stalled token call");
					throw new AssertionError("a call got through without a token");
				}
				catch (ModelArmorException ex) {
					assertThat(ex.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
					return Duration.ofNanos(System.nanoTime() - started).minus(DEADLINE);
				}
			}));

			Collections.sort(overshoots);
			System.out.printf("Token endpoint stall: runs=%d parallel=%d deadline=%dms overshoot min=%dms "
					+ "median=%dms p95=%dms max=%dms tokenConnections=%d%n", RUNS, PARALLEL, DEADLINE.toMillis(),
					overshoots.get(0).toMillis(), overshoots.get(RUNS / 2).toMillis(),
					overshoots.get((int) Math.ceil(RUNS * 0.95) - 1).toMillis(), overshoots.get(RUNS - 1).toMillis(),
					stalling.connections());
			assertThat(overshoots.get(RUNS - 1)).as("worst overshoot past the deadline").isLessThan(WORST_OVERSHOOT);
			assertThat(overshoots.get(0)).as("no call ends before its deadline").isGreaterThan(Duration.ofMillis(-100));
			// google-auth retries its stalled request after its own 20 s read timeout: one connection
			// per 20 s, however many callers wait.
			assertThat(stalling.connections()).isBetween(1, 2);
		}
		assertThat(this.calls).hasSize(RUNS)
			.allSatisfy((call) -> assertThat(call.status()).isEqualTo("token_unavailable"));
		wireMock.verify(1, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
	}

	@Test
	@Timeout(30)
	void aTokenThatComesLateIsTakenByTheNextAttempt() throws Exception {
		// The first token answer takes 1 s; an attempt waits for it at most the 600 ms read timeout.
		tokenAnswers(token("ya29.late").withFixedDelay(1_000));
		VirtualTime time = new VirtualTime();
		ModelArmorTemplate template = template(wireMock.baseUrl() + "/token",
				new HttpTimeouts(Duration.ofSeconds(1), Duration.ofMillis(600)),
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, time.runtime(new SplittableRandom(13))));

		assertThat(template.sanitizeUserPrompt(FaultMatrixTests.SECRET_PROMPT).filterMatchState())
			.isEqualTo(FilterMatchState.NO_MATCH_FOUND);

		assertThat(this.calls).singleElement().satisfies((call) -> {
			assertThat(call.outcome()).isEqualTo(CallOutcome.SUCCESS_AFTER_RETRY);
			assertThat(call.status()).isEqualTo("200");
			assertThat(call.attempts()).isBetween(2, 4);
		});
		assertThat(this.failedAttempts).isNotEmpty().containsOnly("token unavailable (TimeoutException)");
		// The retries waited for the same token request; none started another.
		wireMock.verify(1, postRequestedFor(urlEqualTo("/token")));
		Timer requests = this.meters.get(MicrometerCallObserver.REQUESTS).timer();
		assertThat(requests.getId().getTag("outcome")).isEqualTo("success_after_retry");
		assertThat(requests.getId().getTag("status")).isEqualTo("200");
	}

	@Test
	@Timeout(30)
	void aRefusedGrantThenATokenMakesTheCallSucceedOnALaterAttempt() throws Exception {
		// Two refusals: the background fetch at start may take the first one, a call's attempt the second.
		ResponseDefinitionBuilder refused = aResponse().withStatus(400)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
		tokenAnswers(refused, refused, token("ya29.granted"));
		VirtualTime time = new VirtualTime();
		ModelArmorTemplate template = template(wireMock.baseUrl() + "/token", LONG_TIMEOUTS,
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, time.runtime(new SplittableRandom(13))));

		assertThat(template.sanitizeUserPrompt(FaultMatrixTests.SECRET_PROMPT).filterMatchState())
			.isEqualTo(FilterMatchState.NO_MATCH_FOUND);

		assertThat(this.calls).singleElement().satisfies((call) -> {
			assertThat(call.outcome()).isEqualTo(CallOutcome.SUCCESS_AFTER_RETRY);
			assertThat(call.attempts()).isBetween(2, 3);
		});
		assertThat(this.failedAttempts).isNotEmpty().containsOnly("token unavailable (GoogleAuthException)");
		wireMock.verify(3, postRequestedFor(urlEqualTo("/token")));
		wireMock.verify(1, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
	}

	@Test
	@Timeout(30)
	void concurrentCallersShareOneTokenRequest() throws Exception {
		tokenAnswers(token("ya29.shared").withFixedDelay(500));
		ModelArmorTemplate template = template(wireMock.baseUrl() + "/token", HttpTimeouts.DEFAULTS,
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, RetryRuntime.system()));

		List<FilterMatchState> states = concurrently(10, 10,
				() -> template.sanitizeUserPrompt(FaultMatrixTests.SECRET_PROMPT).filterMatchState());

		assertThat(states).hasSize(10).containsOnly(FilterMatchState.NO_MATCH_FOUND);
		wireMock.verify(1, postRequestedFor(urlEqualTo("/token")));
		wireMock.verify(10, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
		assertThat(this.calls).hasSize(10).allSatisfy((call) -> assertThat(call.attempts()).isOne());
	}

	/** Token answers in order; the last one repeats. */
	private static void tokenAnswers(ResponseDefinitionBuilder... answers) {
		for (int i = 0; i < answers.length; i++) {
			String state = (i == 0) ? STARTED : "answer-" + i;
			var stub = post(urlEqualTo("/token")).inScenario("tokens").whenScenarioStateIs(state).willReturn(answers[i]);
			wireMock.stubFor((i + 1 < answers.length) ? stub.willSetStateTo("answer-" + (i + 1)) : stub);
		}
	}

	private static ResponseDefinitionBuilder token(String value) {
		return okJson("{\"access_token\":\"" + value + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}");
	}

	private ModelArmorTemplate template(String tokenUri, HttpTimeouts timeouts, RetryTemplate retryTemplate) {
		TestServiceAccount account = TestServiceAccount.create(tokenUri);
		GoogleCredentialsLoader loader = new GoogleCredentialsLoader(() -> {
			throw new AssertionError("Application Default Credentials must not be looked up");
		});
		var credentials = loader.load(new ByteArrayResource(account.json().getBytes(StandardCharsets.UTF_8)), null);
		GoogleCredentialsInterceptor authorization = new GoogleCredentialsInterceptor(credentials, timeouts.read());
		this.interceptors.add(authorization);
		MicrometerCallObserver metrics = new MicrometerCallObserver(this.meters, ObservationRegistry.NOOP);
		ModelArmorCallObserver recording = (operation) -> {
			ModelArmorCallObserver.Call measured = metrics.start(operation);
			return new ModelArmorCallObserver.Call() {

				@Override
				public void attemptFailed(int attempt, String failure) {
					TokenEndpointStallTests.this.failedAttempts.add(failure);
					measured.attemptFailed(attempt, failure);
				}

				@Override
				public void finished(CallResult result) {
					TokenEndpointStallTests.this.calls.add(result);
					measured.finished(result);
				}

			};
		};
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(wireMock.baseUrl()))
			.timeouts(timeouts)
			.authorization(authorization)
			.retryTemplate(retryTemplate)
			.projectId("demo-project")
			.location("us-central1")
			.templateId("default-template")
			.callObserver(recording)
			.build();
	}

	private static <T> List<T> concurrently(int runs, int parallel, Callable<T> run) throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(parallel);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < runs; i++) {
				futures.add(callers.submit(() -> {
					start.await();
					return run.call();
				}));
			}
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(30, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			callers.shutdownNow();
		}
	}

}
