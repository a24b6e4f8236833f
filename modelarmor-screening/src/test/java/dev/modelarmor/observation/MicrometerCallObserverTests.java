package dev.modelarmor.observation;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FloorSettingName;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.TerminatedRetryException;
import org.springframework.retry.support.RetryTemplate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link MicrometerCallObserver} behind a real {@link ModelArmorTemplate} calling WireMock: the meters and
 * the observation of every outcome. Waits between attempts run in virtual time, and the meter registry
 * reads the same virtual clock, so call durations are exact.
 */
class MicrometerCallObserverTests {

	static final String PROMPT_PATH = "/v1/projects/demo-project/locations/us-central1/templates/default-template:sanitizeUserPrompt";

	static final String RESPONSE_PATH = "/v1/projects/demo-project/locations/us-central1/templates/default-template:sanitizeModelResponse";

	static final String TEMPLATES_PATH = "/v1/projects/demo-project/locations/us-central1/templates";

	static final String FLOOR_SETTING_PATH = "/v1/projects/demo-project/locations/global/floorSetting";

	static final String SECRET_PROMPT = "my card is 4111 1111 1111 1111";

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	VirtualTime time;

	SimpleMeterRegistry meters;

	TestObservationRegistry observations;

	EventRecorder events;

	RetryTemplate retryTemplate;

	ModelArmorTemplate template;

	@BeforeEach
	void createTemplate() {
		this.time = new VirtualTime();
		this.meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new VirtualClock(this.time));
		this.observations = TestObservationRegistry.create();
		this.events = new EventRecorder();
		this.observations.observationConfig().observationHandler(this.events);
		String baseUrl = modelArmor.baseUrl();
		ModelArmorEndpoint endpoint = new ModelArmorEndpoint(URI.create(baseUrl), URI.create(baseUrl));
		this.retryTemplate = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS,
				this.time.runtime(new SplittableRandom(7)));
		this.template = ModelArmorTemplate.builder()
			.endpoint(endpoint)
			.retryTemplate(this.retryTemplate)
			.projectId("demo-project")
			.location("us-central1")
			.templateId("default-template")
			.callObserver(new MicrometerCallObserver(this.meters, this.observations))
			.build();
	}

	@Test
	void successTakesOneAttemptAndNoWait() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));

		this.template.sanitizeUserPrompt("hello");

		assertCall("sanitize_user_prompt", CallOutcome.SUCCESS, "200", 1, Duration.ZERO);
		assertObservation("sanitize_user_prompt", CallOutcome.SUCCESS, "200");
		assertThat(this.events.failedAttempts()).isEmpty();
	}

	@Test
	void successAfterRetryCountsTheAttemptsAndTheVirtualWaits() {
		failThenAnswer(PROMPT_PATH, 503, 503);

		this.template.sanitizeUserPrompt("hello");

		assertThat(this.time.sleeps()).hasSize(2);
		assertCall("sanitize_user_prompt", CallOutcome.SUCCESS_AFTER_RETRY, "200", 3, this.time.totalSlept());
		assertThat(requestTimer("sanitize_user_prompt", CallOutcome.SUCCESS_AFTER_RETRY, "200")
			.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(this.time.totalSlept().toNanos());
		assertObservation("sanitize_user_prompt", CallOutcome.SUCCESS_AFTER_RETRY, "200");
		assertThat(this.events.failedAttempts()).containsExactly("attempt 1 failed: HTTP 503",
				"attempt 2 failed: HTTP 503");
	}

	@Test
	void aClientErrorIsNonRetryable() {
		modelArmor.stubFor(post(urlPathEqualTo(RESPONSE_PATH)).willReturn(aResponse().withStatus(400)));

		assertOutcome(() -> this.template.sanitizeModelResponse("Paris."), CallOutcome.NON_RETRYABLE);

		assertCall("sanitize_model_response", CallOutcome.NON_RETRYABLE, "400", 1, Duration.ZERO);
		assertObservation("sanitize_model_response", CallOutcome.NON_RETRYABLE, "400");
		assertThat(this.events.failedAttempts()).containsExactly("attempt 1 failed: HTTP 400");
	}

	@Test
	void aGarbledSuccessIsNonRetryableWithStatus200AndNoContentInTheEvent() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH))
			.willReturn(aResponse().withStatus(200).withBody("{\"sanitizationResult\": " + SECRET_PROMPT)));

		assertOutcome(() -> this.template.sanitizeUserPrompt("hi"), CallOutcome.NON_RETRYABLE);

		assertCall("sanitize_user_prompt", CallOutcome.NON_RETRYABLE, "200", 1, Duration.ZERO);
		assertObservation("sanitize_user_prompt", CallOutcome.NON_RETRYABLE, "200");
		assertThat(this.events.failedAttempts()).singleElement()
			.asString()
			.startsWith("attempt 1 failed: ")
			.doesNotContain("4111");
	}

	@Test
	void anOutageEndsAtTheDeadline() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(aResponse().withStatus(503)));

		assertOutcome(() -> this.template.sanitizeUserPrompt("hi"), CallOutcome.DEADLINE_EXCEEDED);

		assertCall("sanitize_user_prompt", CallOutcome.DEADLINE_EXCEEDED, "503", 6, this.time.totalSlept());
		assertThat(this.time.totalSlept()).isPositive();
		assertObservation("sanitize_user_prompt", CallOutcome.DEADLINE_EXCEEDED, "503");
		assertThat(this.events.failedAttempts()).hasSize(6).allMatch((event) -> event.endsWith("failed: HTTP 503"));
	}

	@Test
	void aRetryHintPastTheDeadlineEndsAtOnce() {
		failThenAnswer(PROMPT_PATH, aResponse().withStatus(429).withHeader("Retry-After", "120"));

		assertOutcome(() -> this.template.sanitizeUserPrompt("hi"), CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);

		assertCall("sanitize_user_prompt", CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE, "429", 1, Duration.ZERO);
		assertObservation("sanitize_user_prompt", CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE, "429");
		assertThat(this.events.failedAttempts()).containsExactly("attempt 1 failed: HTTP 429");
	}

	@Test
	void anIoFailureHasStatusIoError() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH))
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		assertOutcome(() -> this.template.sanitizeUserPrompt("hi"), CallOutcome.DEADLINE_EXCEEDED);

		assertCall("sanitize_user_prompt", CallOutcome.DEADLINE_EXCEEDED, "io_error", 6, this.time.totalSlept());
		assertObservation("sanitize_user_prompt", CallOutcome.DEADLINE_EXCEEDED, "io_error");
		assertThat(this.events.failedAttempts()).hasSize(6).allMatch((event) -> event.contains("failed: I/O "));
	}

	@Test
	void templateManagementCallsAreTaggedWithTheirOperation() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES_PATH + "/missing")).willReturn(aResponse().withStatus(404)));
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES_PATH)).willReturn(okJson(template("new-tpl"))));

		assertOutcome(() -> this.template.templates().get("missing"), CallOutcome.NON_RETRYABLE);
		this.template.templates().create("new-tpl", Template.of(filters()));

		assertCall("templates.get", CallOutcome.NON_RETRYABLE, "404", 1, Duration.ZERO);
		assertCall("templates.create", CallOutcome.SUCCESS, "200", 1, Duration.ZERO);
		TestObservationRegistryAssert.assertThat(this.observations)
			.hasNumberOfObservationsWithNameEqualTo(MicrometerCallObserver.OBSERVATION, 2)
			.hasAnObservation((observation) -> observation.hasContextualNameEqualTo("modelarmor templates.get")
				.hasLowCardinalityKeyValue("operation", "templates.get")
				.hasLowCardinalityKeyValue("outcome", "non_retryable")
				.hasLowCardinalityKeyValue("status", "404"))
			.hasAnObservation((observation) -> observation.hasContextualNameEqualTo("modelarmor templates.create")
				.hasLowCardinalityKeyValue("operation", "templates.create")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasLowCardinalityKeyValue("status", "200"));
	}

	@Test
	void aFloorSettingUpdateIsNeverRetried() {
		modelArmor.stubFor(patch(urlPathEqualTo(FLOOR_SETTING_PATH)).willReturn(aResponse().withStatus(503)));

		assertOutcome(() -> this.template.floorSettings()
			.update(FloorSettingName.project("demo-project"),
					new FloorSetting(null, null, null, null, true, null, null, null, null)),
				CallOutcome.NON_RETRYABLE);

		assertCall("floor_settings.update", CallOutcome.NON_RETRYABLE, "503", 1, Duration.ZERO);
		assertObservation("floor_settings.update", CallOutcome.NON_RETRYABLE, "503");
		assertThat(this.events.failedAttempts()).containsExactly("attempt 1 failed: HTTP 503");
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void aCallThatARetryListenerVetoesStillEndsItsObservation() {
		this.retryTemplate.registerListener(new RetryListener() {

			@Override
			public <T, E extends Throwable> boolean open(RetryContext context, RetryCallback<T, E> callback) {
				return false;
			}

		});

		assertThatExceptionOfType(TerminatedRetryException.class)
			.isThrownBy(() -> this.template.sanitizeUserPrompt("hi"));

		assertCall("sanitize_user_prompt", CallOutcome.NON_RETRYABLE, "none", 0, Duration.ZERO);
		assertObservation("sanitize_user_prompt", CallOutcome.NON_RETRYABLE, "none");
	}

	@Test
	void withoutAMeterRegistryOnlyTheObservationIsRecorded() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));
		ModelArmorTemplate observedOnly = this.template.withCallObserver(new MicrometerCallObserver(null,
				this.observations));

		observedOnly.sanitizeUserPrompt("hello");

		assertThat(this.meters.getMeters()).isEmpty();
		assertObservation("sanitize_user_prompt", CallOutcome.SUCCESS, "200");
	}

	@Test
	void bootsMeterObservationHandlerWouldAlsoTimeTheObservation() {
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).willReturn(okJson(NO_MATCH)));
		this.observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.meters));

		this.template.sanitizeUserPrompt("hello");

		assertThat(this.meters.get(MicrometerCallObserver.OBSERVATION)
			.tags("operation", "sanitize_user_prompt", "outcome", "success", "status", "200", "error", "none")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.meters.get(MicrometerCallObserver.REQUESTS).timer().count()).isEqualTo(1);
	}

	private void assertOutcome(Runnable call, CallOutcome expected) {
		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(call::run)
			.satisfies((ex) -> assertThat(ex.outcome()).contains(expected))
			.satisfies((ex) -> assertThat(ex.outcome().orElseThrow().tag()).isEqualTo(expected.tag()));
	}

	private void assertCall(String operation, CallOutcome outcome, String status, int attempts, Duration backoff) {
		Timer requests = requestTimer(operation, outcome, status);
		assertThat(requests.count()).isEqualTo(1);
		assertThat(requests.getId().getDescription()).isNotBlank();
		DistributionSummary attemptsSummary = this.meters.get(MicrometerCallObserver.ATTEMPTS)
			.tags("operation", operation)
			.summary();
		assertThat(attemptsSummary.count()).isEqualTo(1);
		assertThat(attemptsSummary.totalAmount()).isEqualTo(attempts);
		assertThat(attemptsSummary.getId().getBaseUnit()).isEqualTo("attempts");
		Timer backoffTimer = this.meters.get(MicrometerCallObserver.BACKOFF).tags("operation", operation).timer();
		assertThat(backoffTimer.count()).isEqualTo(1);
		assertThat(backoffTimer.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(backoff.toNanos());
		assertThat(this.observations.getCurrentObservation()).as("no observation left in scope").isNull();
	}

	private Timer requestTimer(String operation, CallOutcome outcome, String status) {
		return this.meters.get(MicrometerCallObserver.REQUESTS)
			.tags("operation", operation, "outcome", outcome.tag(), "status", status)
			.timer();
	}

	private void assertObservation(String operation, CallOutcome outcome, String status) {
		TestObservationRegistryAssert.assertThat(this.observations)
			.hasSingleObservationThat()
			.hasNameEqualTo(MicrometerCallObserver.OBSERVATION)
			.hasContextualNameEqualTo("modelarmor " + operation)
			.hasLowCardinalityKeyValue("operation", operation)
			.hasLowCardinalityKeyValue("outcome", outcome.tag())
			.hasLowCardinalityKeyValue("status", status)
			.hasBeenStarted()
			.hasBeenStopped();
	}

	private void failThenAnswer(String path, int... statuses) {
		String state = STARTED;
		for (int i = 0; i < statuses.length; i++) {
			String next = "attempt-" + (i + 2);
			modelArmor.stubFor(post(urlPathEqualTo(path)).inScenario("retry")
				.whenScenarioStateIs(state)
				.willReturn(aResponse().withStatus(statuses[i]))
				.willSetStateTo(next));
			state = next;
		}
		modelArmor.stubFor(
				post(urlPathEqualTo(path)).inScenario("retry").whenScenarioStateIs(state).willReturn(okJson(NO_MATCH)));
	}

	private void failThenAnswer(String path, ResponseDefinitionBuilder failure) {
		modelArmor.stubFor(post(urlPathEqualTo(path)).inScenario("hint")
			.whenScenarioStateIs(STARTED)
			.willReturn(failure)
			.willSetStateTo("answered"));
		modelArmor.stubFor(post(urlPathEqualTo(path)).inScenario("hint")
			.whenScenarioStateIs("answered")
			.willReturn(okJson(NO_MATCH)));
	}

	private static ResponseDefinitionBuilder okJson(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
	}

	static FilterConfig filters() {
		return new FilterConfig(null, null,
				new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.LOW_AND_ABOVE),
				null);
	}

	static String template(String id) {
		return "{\"name\": \"projects/demo-project/locations/us-central1/templates/" + id
				+ "\", \"filterConfig\": {\"piAndJailbreakFilterSettings\": {\"filterEnforcement\": \"ENABLED\"}}}";
	}

	/** The Micrometer clock of a {@link VirtualTime}. */
	static final class VirtualClock implements Clock {

		private final VirtualTime time;

		VirtualClock(VirtualTime time) {
			this.time = time;
		}

		@Override
		public long wallTime() {
			return this.time.millis();
		}

		@Override
		public long monotonicTime() {
			return Duration.between(Instant.EPOCH, this.time.instant()).toNanos();
		}

	}

	/** Records the events of the call observations, by their contextual names. */
	static final class EventRecorder implements ObservationHandler<Observation.Context> {

		private final List<String> failedAttempts = new CopyOnWriteArrayList<>();

		@Override
		public void onEvent(Observation.Event event, Observation.Context context) {
			if (event.getName().equals(MicrometerCallObserver.ATTEMPT_FAILED)) {
				this.failedAttempts.add(event.getContextualName());
			}
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return MicrometerCallObserver.OBSERVATION.equals(context.getName());
		}

		List<String> failedAttempts() {
			return new ArrayList<>(this.failedAttempts);
		}

	}

}
