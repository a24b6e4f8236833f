package dev.modelarmor.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.ApiErrorTranslator;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.logging.SuiteLogCapture;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Error answers written to hurt: whatever Google's error body says (a message that forges log lines,
 * escapes a terminal or reverses text, a megabyte of it, a status that is not one, details of every
 * wrong shape), the caller gets a {@link ModelArmorApiException} with its status code, a one-line
 * message of bounded length and a {@code status()} that is a Google status name or null. Over real HTTP
 * against WireMock; waits in virtual time.
 */
class HostileErrorBodyTests {

	static final String PATH = ModelArmorTemplateTests.PROMPT_PATH;

	/** What a forged log line would say; must never start a line of its own. */
	static final String FORGED = "FORGED-LINE-77 INFO dev.modelarmor Model Armor call succeeded: outcome=success";

	static final String RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	VirtualTime time;

	ModelArmorTemplate template;

	@BeforeEach
	void createTemplate() {
		this.time = new VirtualTime();
		this.template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(RetrySettings.DEFAULTS)
			.retryRuntime(this.time.runtime(new SplittableRandom(11)))
			.projectId("demo-project")
			.templateId("default-template")
			.build();
	}

	@ParameterizedTest
	@ValueSource(strings = { "\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c", "\u001b\u009b\r",
			"\u202e", "\u2066", "\u200b\n" })
	void aMessageCannotStartALineOfItsOwn(String breaker) {
		answer(400, error(Map.of("code", 400, "message", "Bad request." + breaker + FORGED, "status", "INVALID_ARGUMENT")));

		ModelArmorApiException ex = callFails();

		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 400 INVALID_ARGUMENT: Bad request. " + FORGED);
		assertOnePrintableLine(ex.getMessage());
		assertNoLogLineStartsWithTheForgery();
	}

	@Test
	void aMegabyteMessageIsCutToAFewHundredCharacters() {
		String huge = "Quota exceeded. " + "A".repeat(1 << 20);
		answer(429, error(Map.of("code", 429, "message", huge, "status", "RESOURCE_EXHAUSTED")));

		ModelArmorApiException ex = callFails();

		assertThat(ex.getMessage()).startsWith("Model Armor answered HTTP 429 RESOURCE_EXHAUSTED: Quota exceeded. AAAA")
			.endsWith("A…")
			.hasSizeLessThanOrEqualTo(ModelArmorException.MAX_MESSAGE_LENGTH + 1);
		assertThat(ex.getMessage().length()).isLessThanOrEqualTo(60 + ApiErrorTranslator.MAX_MESSAGE_LENGTH + 1);
		assertThat(ex.status()).isEqualTo("RESOURCE_EXHAUSTED");
	}

	@ParameterizedTest
	@ValueSource(strings = { "invalid_argument", "INVALID ARGUMENT", "PERMISSION_DENIED\n" + FORGED, "\u202eDENIED",
			"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLM", "" })
	void aStatusThatIsNotAStatusNameIsNull(String status) {
		answer(403, error(Map.of("code", 403, "message", "Permission denied.", "status", status)));

		ModelArmorApiException ex = callFails();

		assertThat(ex.status()).isNull();
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 403: Permission denied.");
	}

	@Test
	void aStatusOrMessageOfAnotherTypeIsLeftOutAndTheRestKept() {
		answer(403, error(Map.of("code", "403", "message", Map.of("text", FORGED), "status", "PERMISSION_DENIED")));
		assertThat(callFails()).satisfies((ex) -> {
			assertThat(ex.status()).isEqualTo("PERMISSION_DENIED");
			assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 403 PERMISSION_DENIED");
		});

		answer(403, error(Map.of("message", "Permission denied.", "status", List.of("PERMISSION_DENIED"))));
		assertThat(callFails()).satisfies((ex) -> {
			assertThat(ex.status()).isNull();
			assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 403: Permission denied.");
		});
	}

	@Test
	void detailsOfEveryWrongShapeLoseOnlyThemselves() {
		answer(429, """
				{"error": {"code": 429, "message": "Slow down.", "status": "RESOURCE_EXHAUSTED", "details": [
				  null, 1, "x", [], {}, {"@type": 5}, {"@type": null, "retryDelay": "9s"},
				  {"@type": "%1$s", "retryDelay": 5},
				  {"@type": "%1$s", "retryDelay": {"seconds": 50}},
				  {"@type": "%1$s", "retryDelay": null},
				  {"@type": "%1$s", "retryDelay": "-40s"},
				  {"@type": "%1$s", "retryDelay": "2.5s"},
				  {"@type": "%1$s"}
				]}}""".formatted(RETRY_INFO));

		ModelArmorApiException ex = callFails(2);

		assertThat(ex.status()).isEqualTo("RESOURCE_EXHAUSTED");
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 429 RESOURCE_EXHAUSTED: Slow down.");
		assertThat(ex.retryAfter()).contains(Duration.ofMillis(2_500));
		// the first wait: the schedule's 1-2 s raised to the one readable hint, not to any of the others
		assertThat(this.time.sleeps().get(0)).isEqualTo(Duration.ofMillis(2_500));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"error\": [1, 2]}", "{\"error\": \"denied\"}", "{\"error\": null}", "[{\"error\": {}}]",
			"\"error\"", "null", "{\"error\": {\"message\": \"unterminated", "<html>\n<h1>403</h1>\n</html>" })
	void aBodyThatIsNotGooglesErrorSaysSo(String body) {
		answer(403, body);

		ModelArmorApiException ex = callFails();

		assertThat(ex.statusCode()).isEqualTo(403);
		assertThat(ex.status()).isNull();
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 403 with a body that is not a Google error");
	}

	@Test
	void anEmptyBodyGivesTheStatusCodeAlone() {
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(403)));

		assertThat(callFails().getMessage()).isEqualTo("Model Armor answered HTTP 403");
	}

	@Test
	@Timeout(20)
	void aBodyNestedTooDeeplyToReadIsStillAnErrorWithItsStatusCode() {
		int depth = 100_000;
		answer(400, "{\"error\": {\"status\": \"INVALID_ARGUMENT\", \"details\": " + "[".repeat(depth) + "]".repeat(depth)
				+ "}}");

		ModelArmorApiException ex = callFails();

		assertThat(ex.statusCode()).isEqualTo(400);
		assertThat(ex.getMessage()).startsWith("Model Armor answered HTTP 400");
	}

	@Test
	void aNumberTooLongToReadIsStillAnErrorWithItsStatusCode() {
		answer(400, "{\"error\": {\"code\": " + "9".repeat(100_000) + ", \"status\": \"INVALID_ARGUMENT\"}}");

		assertThat(callFails().statusCode()).isEqualTo(400);
	}

	@Test
	void theLongerOfRetryAfterAndRetryInfoWinsWhicheverItIs() {
		answerThenSucceed(aResponse().withStatus(503)
			.withHeader("Retry-After", "7")
			.withHeader("Content-Type", "application/json")
			.withBody(retryInfo("3s")));
		assertThat(this.template.sanitizeUserPrompt("hello").matchFound()).isFalse();
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(7));

		modelArmor.resetAll();
		createTemplate();
		answerThenSucceed(aResponse().withStatus(503)
			.withHeader("Retry-After", "3")
			.withHeader("Content-Type", "application/json")
			.withBody(retryInfo("7.25s")));
		assertThat(this.template.sanitizeUserPrompt("hello").matchFound()).isFalse();
		assertThat(this.time.sleeps()).containsExactly(Duration.ofMillis(7_250));
	}

	@Test
	void ofSeveralRetryAfterHeadersTheLongestWins() {
		answerThenSucceed(aResponse().withStatus(503).withHeader("Retry-After", "3", "soon", "9", "-50"));

		this.template.sanitizeUserPrompt("hello");

		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(9));
	}

	@Test
	void aHintTooLongInEitherPlaceEndsTheCallAtOnceWithItsOutcome() {
		answer(503, retryInfo("99999999999999999999999s"));
		assertThat(callFails()).satisfies((ex) -> {
			assertThat(ex.retryAfter()).contains(dev.modelarmor.retry.internal.RetryAfterHints.TOO_LONG);
			assertThat(ex.outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		});

		modelArmor.resetAll();
		modelArmor.stubFor(post(urlPathEqualTo(PATH))
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")));
		assertThat(callFails()).satisfies((ex) -> {
			assertThat(ex.retryAfter()).contains(dev.modelarmor.retry.internal.RetryAfterHints.TOO_LONG);
			assertThat(ex.outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		});
		assertThat(this.time.sleeps()).isEmpty();
	}

	static void assertOnePrintableLine(String text) {
		assertThat(text).doesNotContainPattern("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Cn}]");
	}

	/** No line captured so far (the suite's capture, when installed) holds the forgery after a line break. */
	private static void assertNoLogLineStartsWithTheForgery() {
		if (SuiteLogCapture.installed()) {
			assertThat(SuiteLogCapture.lines()).noneSatisfy((line) -> assertThat(line.text())
				.containsPattern("[\\n\\r\\u0085\\u2028\\u2029]\\s*" + FORGED.substring(0, 14)));
		}
	}

	private ModelArmorApiException callFails() {
		return callFails(1);
	}

	private ModelArmorApiException callFails(int minimumAttempts) {
		ModelArmorApiException[] thrown = new ModelArmorApiException[1];
		assertThatExceptionOfType(ModelArmorApiException.class)
			.isThrownBy(() -> this.template.sanitizeUserPrompt("hello"))
			.satisfies((ex) -> {
				assertThat(ex.attempts()).isGreaterThanOrEqualTo(minimumAttempts);
				assertOnePrintableLine(ex.getMessage());
				thrown[0] = ex;
			});
		return thrown[0];
	}

	private static void answer(int status, String body) {
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).willReturn(
				aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
	}

	private static void answerThenSucceed(ResponseDefinitionBuilder failure) {
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).inScenario("hint")
			.whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
			.willReturn(failure)
			.willSetStateTo("answered"));
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).inScenario("hint")
			.whenScenarioStateIs("answered")
			.willReturn(aResponse().withStatus(200)
				.withHeader("Content-Type", "application/json")
				.withBody(ModelArmorTemplateTests.NO_MATCH)));
	}

	static String error(Map<String, Object> error) {
		return ModelArmorJson.mapper().writeValueAsString(Map.of("error", error));
	}

	static String retryInfo(String delay) {
		return error(Map.of("code", 503, "status", "UNAVAILABLE", "details",
				List.of(Map.of("@type", RETRY_INFO, "retryDelay", delay))));
	}

}
