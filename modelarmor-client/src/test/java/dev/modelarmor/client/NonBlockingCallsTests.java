package dev.modelarmor.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ExchangeSlots;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.TokenUnavailableException;
import dev.modelarmor.retry.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The non-blocking path of {@link ModelArmorTemplate} through real HTTP: the same answers, failures, waits
 * and outcomes as the blocking path, retry arithmetic in virtual time, and a cancel that stops the call.
 */
class NonBlockingCallsTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private static final String SANITIZE = ".*:sanitizeUserPrompt";

	private static final String NO_MATCH = "{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", \"invocationResult\": \"SUCCESS\"}}";

	/** The async path must not use the executor: any task given to it fails the test. */
	private static final Executor NEVER = (task) -> {
		throw new AssertionError("the non-blocking path ran a task on the fallback executor");
	};

	private final List<CallResult> calls = new CopyOnWriteArrayList<>();

	private final ModelArmorCallObserver observer = (operation) -> new ModelArmorCallObserver.Call() {
		@Override
		public void finished(CallResult result) {
			NonBlockingCallsTests.this.calls.add(result);
		}
	};

	private @Nullable ModelArmorTemplate template;

	@AfterEach
	void close() {
		if (this.template != null) {
			this.template.close();
		}
	}

	private ModelArmorTemplate template(RetrySettings settings, RetryRuntime runtime,
			@Nullable ClientHttpRequestInterceptor authorization) {
		this.template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(settings)
			.retryRuntime(runtime)
			.authorization(authorization)
			.callObserver(this.observer)
			.projectId("p")
			.templateId("t")
			.build();
		return this.template;
	}

	private static RetrySettings deadline(Duration deadline, boolean retry429) {
		return new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, deadline, retry429, true);
	}

	private static SanitizationResult screen(ModelArmorTemplate template) throws Exception {
		return template.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, NEVER)
			.get(30, TimeUnit.SECONDS);
	}

	private static Throwable failureOf(ModelArmorTemplate template) {
		CompletableFuture<SanitizationResult> result = template.sanitizeUserPromptAsync(DataItem.text("hello"),
				SanitizeOptions.NONE, NEVER);
		assertThatThrownBy(() -> result.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
		Throwable failure = result.handle((ok, thrown) -> thrown).join();
		return (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null)
				? failure.getCause() : failure;
	}

	private void failFirst(int failures, int status, @Nullable String retryAfter) {
		String state = STARTED;
		for (int i = 0; i < failures; i++) {
			var answer = aResponse().withStatus(status).withBody("{\"error\": {\"code\": " + status + "}}");
			if (retryAfter != null) {
				answer = answer.withHeader("Retry-After", retryAfter);
			}
			modelArmor.stubFor(post(urlPathMatching(SANITIZE)).inScenario("s").whenScenarioStateIs(state)
				.willReturn(answer).willSetStateTo("after-" + i));
			state = "after-" + i;
		}
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).inScenario("s").whenScenarioStateIs(state)
			.willReturn(okJson(NO_MATCH)));
	}

	@Test
	void callsOneAfterAnotherStartNoThreadEach() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, RetryRuntime.system(), null);
		template.sanitizeUserPromptAsync(DataItem.text("warm-up"), SanitizeOptions.NONE, NEVER).get(10, TimeUnit.SECONDS);
		java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
		long startedBefore = threads.getTotalStartedThreadCount();
		for (int i = 0; i < 100; i++) {
			template.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, NEVER).get(10, TimeUnit.SECONDS);
		}
		// the JDK's sendAsync alone would start one per completion where the common pool has one thread;
		// WireMock's own threads may come and go meanwhile, loosely
		assertThat(threads.getTotalStartedThreadCount() - startedBefore).isLessThan(30);
	}

	@Test
	void aCallHeldPastItsDeadlineEndsThenWhateverHoldsIt() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		AttemptGate neverAdmits = (operation, template, location) -> new AttemptGate.CallAdmissions() {

			@Override
			public AttemptGate.Admission admit(@Nullable RetryDeadline deadline) {
				throw new AssertionError("the non-blocking path asks admitAsync");
			}

			@Override
			public CompletableFuture<AttemptGate.Admission> admitAsync(@Nullable RetryDeadline deadline) {
				return new CompletableFuture<>();
			}

		};
		this.template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(deadline(Duration.ofSeconds(1), false))
			.callObserver(this.observer)
			.attemptGate(neverAdmits)
			.projectId("p")
			.templateId("t")
			.build();
		long start = System.nanoTime();
		Throwable failure = failureOf(this.template);
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(failure).isInstanceOfSatisfying(ModelArmorException.class,
				(ex) -> assertThat(ex.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED));
		// the deadline and its grace (2 s), loosely: the machine may be loaded
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(1900)).isLessThan(Duration.ofSeconds(10));
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void answersWithoutTheExecutorAndReportsTheCall() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, RetryRuntime.system(), null);

		assertThat(template.isNonBlocking()).isTrue();
		assertThat(template.withTemplate("other").isNonBlocking()).isTrue();
		assertThat(screen(template).verdict()).isEqualTo(SanitizationResult.Verdict.NO_MATCH);
		modelArmor.verify(1, postRequestedFor(urlPathMatching(".*/templates/t:sanitizeUserPrompt")));
		assertThat(this.calls).singleElement().satisfies((call) -> {
			assertThat(call.outcome()).isEqualTo(CallOutcome.SUCCESS);
			assertThat(call.attempts()).isEqualTo(1);
		});
	}

	@Test
	void retriesA503AfterTheDocumentedWaitsInVirtualTime() throws Exception {
		failFirst(2, 503, null);
		VirtualTime time = new VirtualTime();
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, time.runtime(new SplittableRandom(3)), null);

		assertThat(screen(template).verdict()).isEqualTo(SanitizationResult.Verdict.NO_MATCH);
		assertThat(time.sleeps()).hasSize(2);
		assertThat(time.sleeps().get(0)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(time.sleeps().get(1)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
		assertThat(this.calls).singleElement().satisfies((call) -> {
			assertThat(call.outcome()).isEqualTo(CallOutcome.SUCCESS_AFTER_RETRY);
			assertThat(call.attempts()).isEqualTo(3);
			assertThat(call.backoff()).isEqualTo(time.sleeps().get(0).plus(time.sleeps().get(1)));
		});
	}

	@Test
	void bothPathsWaitTheSameScheduleForTheSameRandomSource() throws Exception {
		failFirst(4, 503, null);
		VirtualTime blockingTime = new VirtualTime();
		template(RetrySettings.DEFAULTS, blockingTime.runtime(new SplittableRandom(42)), null)
			.sanitizeUserPrompt("hello");
		this.template.close();
		modelArmor.resetAll();
		failFirst(4, 503, null);
		VirtualTime asyncTime = new VirtualTime();

		screen(template(RetrySettings.DEFAULTS, asyncTime.runtime(new SplittableRandom(42)), null));

		assertThat(blockingTime.sleeps()).hasSize(4);
		assertThat(asyncTime.sleeps()).isEqualTo(blockingTime.sleeps());
		assertThat(this.calls).extracting(CallResult::outcome, CallResult::attempts, CallResult::backoff)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(CallOutcome.SUCCESS_AFTER_RETRY, 5, blockingTime.totalSlept()),
					org.assertj.core.groups.Tuple.tuple(CallOutcome.SUCCESS_AFTER_RETRY, 5, blockingTime.totalSlept()));
	}

	@Test
	void anOutageEndsByTheDeadline() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(aResponse().withStatus(503)));
		VirtualTime time = new VirtualTime();
		ModelArmorTemplate template = template(deadline(Duration.ofSeconds(10), true),
				time.runtime(new SplittableRandom(1)), null);

		Throwable failure = failureOf(template);

		assertThat(failure).isInstanceOf(ModelArmorApiException.class);
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
		assertThat(time.totalSlept()).isLessThanOrEqualTo(Duration.ofSeconds(10));
		assertThat(this.calls).singleElement()
			.satisfies((call) -> assertThat(call.outcome()).isEqualTo(CallOutcome.DEADLINE_EXCEEDED));
	}

	@Test
	void a429IsRetriedOnlyWhenThePropertySaysSo() throws Exception {
		failFirst(1, 429, null);
		Throwable failure = failureOf(template(deadline(Duration.ofSeconds(60), false),
				new VirtualTime().runtime(new SplittableRandom(1)), null));
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.NON_RETRYABLE);
		modelArmor.verify(1, postRequestedFor(urlPathMatching(SANITIZE)));
		this.template.close();

		modelArmor.resetAll();
		failFirst(1, 429, null);
		assertThat(screen(template(deadline(Duration.ofSeconds(60), true),
				new VirtualTime().runtime(new SplittableRandom(1)), null)).verdict())
			.isEqualTo(SanitizationResult.Verdict.NO_MATCH);
		modelArmor.verify(2, postRequestedFor(urlPathMatching(SANITIZE)));
	}

	@Test
	void aRetryAfterHintRaisesTheWait() throws Exception {
		failFirst(1, 503, "7");
		VirtualTime time = new VirtualTime();

		screen(template(RetrySettings.DEFAULTS, time.runtime(new SplittableRandom(1)), null));

		assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
	}

	@Test
	void aRetryAfterHintPastTheDeadlineEndsTheCall() {
		failFirst(1, 503, "30");
		Throwable failure = failureOf(template(deadline(Duration.ofSeconds(10), true),
				new VirtualTime().runtime(new SplittableRandom(1)), null));
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
	}

	@Test
	void noTokenIsAnAttemptNotSentAndRetriedUntilTheDeadline() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		NoToken noToken = new NoToken();
		Throwable failure = failureOf(template(deadline(Duration.ofSeconds(5), true),
				new VirtualTime().runtime(new SplittableRandom(1)), noToken));

		assertThat(failure).isInstanceOf(ModelArmorException.class)
			.hasMessageStartingWith("Model Armor could not be called: ")
			.hasRootCauseInstanceOf(TimeoutException.class);
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
		assertThat(noToken.asked).isGreaterThan(1);
		modelArmor.verify(0, postRequestedFor(urlPathMatching(SANITIZE)));
		assertThat(this.calls).singleElement().satisfies((call) -> assertThat(call.status()).isEqualTo("token_unavailable"));
	}

	@Test
	void anAnswerLargerThanTheBoundIsNotReadFurther() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE))
			.willReturn(aResponse().withStatus(200).withBody(new byte[BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + 1024])));
		Throwable failure = failureOf(template(RetrySettings.DEFAULTS, RetryRuntime.system(), null));
		assertThat(failure).isInstanceOf(ModelArmorException.class).hasMessageContaining("with a body larger than");
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.NON_RETRYABLE);
		modelArmor.verify(1, postRequestedFor(urlPathMatching(SANITIZE)));
	}

	@Test
	void garbageIsNotASanitizeResponseAndIsNotQuoted() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson("{\"sanitizationResult\": secret-echo")));
		Throwable failure = failureOf(template(RetrySettings.DEFAULTS, RetryRuntime.system(), null));
		assertThat(failure).isInstanceOf(ModelArmorException.class)
			.hasMessageContaining("with a body that is not a sanitize response")
			.hasMessageNotContaining("secret-echo");
		assertThat(((ModelArmorException) failure).outcome()).contains(CallOutcome.NON_RETRYABLE);
	}

	@Test
	void anOversizedPromptIsAFailedFutureNotAnException() {
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, RetryRuntime.system(), null);
		CompletableFuture<SanitizationResult> result = template.sanitizeUserPromptAsync(
				DataItem.text("x".repeat(DataItem.MAX_BYTES + 1)), SanitizeOptions.NONE, NEVER);
		assertThat(result).isCompletedExceptionally();
		assertThat(result.handle((ok, failure) -> failure).join()).isInstanceOf(ModelArmorInputTooLargeException.class);
		modelArmor.verify(0, postRequestedFor(urlPathMatching(SANITIZE)));
	}

	@Test
	void cancellingStopsTheRetries() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(aResponse().withStatus(503)));
		ModelArmorTemplate template = template(deadline(Duration.ofSeconds(30), true), RetryRuntime.system(), null);
		CompletableFuture<SanitizationResult> result = template.sanitizeUserPromptAsync(DataItem.text("hello"),
				SanitizeOptions.NONE, NEVER);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> modelArmor.countRequestsMatching(postRequestedFor(urlPathMatching(SANITIZE)).build()).getCount() >= 1);

		assertThat(result.cancel(true)).isTrue();

		await().atMost(Duration.ofSeconds(5)).until(() -> !this.calls.isEmpty());
		assertThat(this.calls).singleElement().satisfies((call) -> assertThat(call.outcome()).isEqualTo(CallOutcome.INTERRUPTED));
		// the first retry would have come within 2 s
		Thread.sleep(3_000);
		modelArmor.verify(1, postRequestedFor(urlPathMatching(SANITIZE)));
	}

	@Test
	void aLocationWhoseExchangesHangHoldsItsOwnSlotsOnly() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		ModelArmorTemplate template = template(deadline(Duration.ofSeconds(2), true), RetryRuntime.system(), null);
		ModelArmorTemplate eu = template.withTemplate(TemplateReference.of("t", "europe-west4"));
		URI euCall = URI.create(modelArmor.baseUrl() + "/v1/projects/p/locations/europe-west4/templates/t:sanitizeUserPrompt");
		// every exchange slot of europe-west4 held, as by answers that never come
		ExchangeSlots euSlots = template.transport().exchangeSlots(euCall);
		int held = euSlots.drainPermits();
		try {
			assertThat(held).isEqualTo(DeadlineBoundedRequestFactory.MAX_EXCHANGES_IN_FLIGHT);
			assertThat(template.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, NEVER)
				.get(10, TimeUnit.SECONDS)).as("us-central1 has slots of its own").isNotNull();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> eu
				.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, NEVER)
				.get(10, TimeUnit.SECONDS));
			modelArmor.verify(1, postRequestedFor(urlPathMatching(".*/locations/us-central1/.*")));
			modelArmor.verify(0, postRequestedFor(urlPathMatching(".*/locations/europe-west4/.*")));
		}
		finally {
			euSlots.release(held);
		}
	}

	@Test
	void cancellingCancelsTheExchangeInFlight() {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH).withFixedDelay(20_000)));
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, RetryRuntime.system(), null);
		ExchangeSlots slots = template.transport().exchangeSlots(URI.create(modelArmor.baseUrl()
				+ "/v1/projects/p/locations/" + template.getLocation() + "/templates/t:sanitizeUserPrompt"));
		CompletableFuture<SanitizationResult> result = template.sanitizeUserPromptAsync(DataItem.text("hello"),
				SanitizeOptions.NONE, NEVER);
		await().atMost(Duration.ofSeconds(10)).until(() -> slots.availablePermits() < DeadlineBoundedRequestFactory.MAX_EXCHANGES_IN_FLIGHT);

		result.cancel(true);

		await().atMost(Duration.ofSeconds(5))
			.until(() -> slots.availablePermits() == DeadlineBoundedRequestFactory.MAX_EXCHANGES_IN_FLIGHT);
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.calls.isEmpty());
		assertThat(this.calls).singleElement().satisfies((call) -> assertThat(call.outcome()).isEqualTo(CallOutcome.INTERRUPTED));
	}

	@Test
	void anAuthorizationThatCannotGiveItsHeadersAsAFutureFallsBackToTheExecutor() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(SANITIZE)).willReturn(okJson(NO_MATCH)));
		ClientHttpRequestInterceptor blocking = (request, body, execution) -> execution.execute(request, body);
		ModelArmorTemplate template = template(RetrySettings.DEFAULTS, RetryRuntime.system(), blocking);
		List<Runnable> ran = new CopyOnWriteArrayList<>();

		SanitizationResult result = template.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE,
				(task) -> {
					ran.add(task);
					task.run();
				}).get(30, TimeUnit.SECONDS);

		assertThat(template.isNonBlocking()).isFalse();
		assertThat(result.verdict()).isEqualTo(SanitizationResult.Verdict.NO_MATCH);
		assertThat(ran).hasSize(1);
	}

	/** An authorization whose token never comes. */
	static final class NoToken implements ClientHttpRequestInterceptor, NonBlockingAuthorization {

		volatile int asked;

		@Override
		public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
				throws IOException {
			throw new TokenUnavailableException("no token", new TimeoutException());
		}

		@Override
		public CompletableFuture<Map<String, List<String>>> headersFor(URI uri, Duration limit) {
			this.asked++;
			return CompletableFuture.failedFuture(new TokenUnavailableException(
					"Could not obtain a Google access token within " + limit.toMillis() + " ms", new TimeoutException()));
		}

		@Override
		public CompletableFuture<Map<String, List<String>>> refreshedHeadersFor(URI uri, Duration limit) {
			return headersFor(uri, limit);
		}

	}

}
