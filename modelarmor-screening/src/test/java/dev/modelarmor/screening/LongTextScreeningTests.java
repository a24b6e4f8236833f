package dev.modelarmor.screening;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.HeadReadingFilters;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.WindowCutter.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.client.HeadReadingFilters.CARD_NUMBER;
import static dev.modelarmor.client.HeadReadingFilters.CARD_REPLACEMENT;
import static dev.modelarmor.client.HeadReadingFilters.INJECTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link LongTextScreening} through a real {@link ModelArmorTemplate} against WireMock on loopback, whose
 * {@link HeadReadingFilters} read only the first 10,000 tokens of an item, as Model Armor's
 * prompt-injection filter does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LongTextScreeningTests {

	static final String PROMPT_PATH = "/v1/projects/demo-project/locations/us-central1/templates/default-template:sanitizeUserPrompt";

	static final String SENTENCE = "The harbour stays open and the coastal weather is calm today. ";

	static final String NOT_SCREENED = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "FAILURE",
			 "filterResults": {"rai": {"raiFilterResult": {"executionState": "EXECUTION_SKIPPED"}}},
			 "sanitizationMetadata": {"errorCode": 500, "errorMessage": "rai filter timed out"}}}""";

	static final HeadReadingFilters filters = new HeadReadingFilters();

	static final HeadReadingFilters.Received received = new HeadReadingFilters.Received();

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().extensions(filters, received).containerThreads(64))
		.build();

	ModelArmorTemplate template;

	LongTextScreening screening;

	@BeforeEach
	void answerWithTheFilters() throws InterruptedException {
		awaitQuiet();
		answerAfter(0);
		this.template = template(modelArmor.baseUrl());
		this.screening = new LongTextScreening(this.template, WindowSettings.DEFAULTS);
	}

	@AfterEach
	void close() {
		this.screening.close();
	}

	static ModelArmorTemplate template(String baseUrl) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(baseUrl))
			.retryTemplate(ModelArmorRetryTemplates.singleAttempt(RetrySettings.DEFAULTS, RetryRuntime.system()))
			.projectId("demo-project")
			.templateId("default-template")
			.build();
	}

	/** Every sanitize call is answered by the filters, after a delay. */
	static void answerAfter(int delayMillis) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)")).atPriority(10)
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)
				.withTransformerParameter(HeadReadingFilters.DELAY, delayMillis)));
	}

	/** Waits for an earlier test's delayed answers, then counts afresh. */
	static void awaitQuiet() throws InterruptedException {
		filters.awaitQuietAndReset();
		received.reset();
	}

	static String padding(int chars) {
		return SENTENCE.repeat(chars / SENTENCE.length() + 1).substring(0, chars);
	}

	@Test
	void anInjectionAfterTwoHundredThousandCharactersPassesOneCallButNotTheWindows() {
		String attack = padding(200_000) + " " + INJECTION;

		assertThat(this.template.sanitizeUserPrompt(attack).verdict()).as("one call reads only the head")
			.isEqualTo(Verdict.NO_MATCH);
		received.reset();
		SanitizationResult result = this.screening.sanitizeUserPrompt(attack);

		assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(result.matchedFilters()).containsExactly("pi_and_jailbreak");
		List<String> sent = promptTexts();
		List<Window> windows = WindowCutter.split(attack, WindowSettings.DEFAULTS).windows();
		assertThat(windows).hasSizeGreaterThan(20);
		// The last window's match stops the windows still in flight, which may not have reached the server.
		assertThat(sent).hasSizeBetween(windows.size() - WindowSettings.DEFAULTS.parallelism() + 1, windows.size());
		assertThat(sent).filteredOn((text) -> text.contains(INJECTION)).containsExactly(windows.get(windows.size() - 1).of(attack));
		assertThat(sent).allSatisfy((text) -> assertThat(nfkcBytes(text)).isLessThanOrEqualTo(8192));
	}

	@Test
	void anInjectionAcrossAWindowEdgeLiesWholeInTheNextWindow() {
		String text = padding(8192 - 30) + INJECTION + " " + padding(20_000);
		List<Window> windows = WindowCutter.split(text, WindowSettings.DEFAULTS).windows();
		int injectionStart = text.indexOf(INJECTION);
		assertThat(windows.get(0).end()).as("the first window ends inside the injection")
			.isBetween(injectionStart + 1, injectionStart + INJECTION.length() - 1);

		SanitizationResult result = this.screening.sanitizeUserPrompt(text);

		assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(result.matchedFilters()).containsExactly("pi_and_jailbreak");
		assertThat(promptTexts()).filteredOn((sent) -> sent.contains(INJECTION)).containsExactly(windows.get(1).of(text));
	}

	@Test
	void paddingWithFourByteCharactersCannotPushAnInjectionOutOfReach() {
		String attack = "😀".repeat(100_000) + INJECTION;
		assertThat(this.template.sanitizeUserPrompt(attack).verdict()).isEqualTo(Verdict.NO_MATCH);
		received.reset();

		assertThat(this.screening.sanitizeUserPrompt(attack).verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(promptTexts()).hasSizeGreaterThan(40)
			.allSatisfy((text) -> assertThat(nfkcBytes(text)).isLessThanOrEqualTo(8192))
			.allSatisfy(LongTextScreeningTests::assertNoLoneSurrogate);
	}

	@Test
	void paddingWithCharactersThatNfkcExpandsCannotPushAnInjectionOutOfReach() {
		// U+FDFA is 3 bytes as written and 33 after NFKC, where a normalizing tokenizer reads it.
		String attack = "\uFDFA".repeat(10_000) + INJECTION;
		assertThat(this.template.sanitizeUserPrompt(attack).verdict()).isEqualTo(Verdict.NO_MATCH);
		received.reset();

		assertThat(this.screening.sanitizeUserPrompt(attack).verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(promptTexts()).allSatisfy((text) -> assertThat(nfkcBytes(text)).isLessThanOrEqualTo(8192));
	}

	@Test
	void surrogatePairsAtEveryCutReachTheServerWhole() {
		String text = "👍🏽𝔘😀".repeat(25_000) + INJECTION;

		assertThat(this.screening.sanitizeUserPrompt(text).verdict()).isEqualTo(Verdict.MATCHED);
		List<String> sent = promptTexts();
		assertThat(sent).hasSizeGreaterThan(50).allSatisfy(LongTextScreeningTests::assertNoLoneSurrogate);
		assertThat(String.join("", sent).codePoints().filter((codePoint) -> codePoint == 0xFFFD)).isEmpty();
	}

	@Test
	void textThatFitsOneWindowIsOneCallWhoseResultIsReturnedAsItIs() {
		String prompt = padding(8000);
		SanitizationResult direct = this.template.sanitizeUserPrompt(prompt);
		received.reset();

		assertThat(this.screening.sanitizeUserPrompt(prompt)).isEqualTo(direct);
		assertThat(promptTexts()).containsExactly(prompt);
		assertThat(this.screening.sanitizeUserPrompt("Hi").verdict()).isEqualTo(Verdict.NO_MATCH);
	}

	@Test
	void aWindowThatIsNotScreenedMakesTheTextNotScreenedAndStopsTheRest() {
		LongTextScreening sequential = new LongTextScreening(this.template, new WindowSettings(8192, 1024, 1, 64));
		String text = padding(20_000) + " OUTAGE-MARKER " + padding(60_000);
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", containing("OUTAGE-MARKER")))
			.willReturn(okJson(NOT_SCREENED)));
		try (sequential) {
			SanitizationResult result = sequential.sanitizeUserPrompt(text);

			assertThat(result.verdict()).isEqualTo(Verdict.NOT_SCREENED);
			assertThat(result.invocationResult()).isEqualTo(InvocationResult.FAILURE);
			assertThat(result.sanitizationMetadata().errorCode()).isEqualTo(500);
			List<Window> windows = WindowCutter.split(text, WindowSettings.DEFAULTS).windows();
			int firstWithMarker = 0;
			while (!windows.get(firstWithMarker).of(text).contains("OUTAGE-MARKER")) {
				firstWithMarker++;
			}
			assertThat(firstWithMarker).isPositive().isLessThan(windows.size() - 2);
			assertThat(promptTexts()).as("no window after it").hasSize(firstWithMarker + 1);
		}
	}

	@Test
	void aWindowWhoseCallFailsMakesTheWholeCallThrowItsExceptionAndNoWindowStartsAfterIt() throws InterruptedException {
		String text = "OUTAGE-MARKER " + padding(200_000);
		answerAfter(300);
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", containing("OUTAGE-MARKER")))
			.willReturn(aResponse().withStatus(503)));

		assertThatExceptionOfType(ModelArmorApiException.class)
			.isThrownBy(() -> this.screening.sanitizeUserPrompt(text))
			.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(503));
		int receivedByNow = received.count();
		awaitQuiet();
		assertThat(receivedByNow).isLessThanOrEqualTo(WindowSettings.DEFAULTS.parallelism());
		assertThat(received.count()).as("requests after the failure").isZero();
		assertThat(promptTexts()).hasSizeLessThanOrEqualTo(WindowSettings.DEFAULTS.parallelism());
	}

	@Test
	void aMatchWinsOverAWindowThatIsNotScreenedOrFails() {
		LongTextScreening sequential = new LongTextScreening(this.template, new WindowSettings(8192, 1024, 1, 64));
		String text = "my card 4111 1111 1111 1111 " + padding(20_000) + " OUTAGE-MARKER " + padding(30_000);
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", containing("OUTAGE-MARKER")))
			.willReturn(okJson(NOT_SCREENED)));
		try (sequential) {
			SanitizationResult result = sequential.sanitizeUserPrompt(text);

			assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
			assertThat(result.matchedFilters()).containsExactly("sdp");
			assertThat(result.deidentifiedText()).as("not every window was de-identified").isEmpty();
			assertThat(result.invocationResult()).isEqualTo(InvocationResult.FAILURE);

			modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).atPriority(1)
				.withRequestBody(matchingJsonPath("$.userPromptData.text", containing("OUTAGE-MARKER")))
				.willReturn(aResponse().withStatus(503)));
			assertThat(sequential.sanitizeUserPrompt(text).verdict()).isEqualTo(Verdict.MATCHED);
		}
	}

	@Test
	void aMatchStopsTheWindowsNotYetSentWhichTheServerNeverSees() throws InterruptedException {
		String text = INJECTION + " " + padding(200_000);
		answerAfter(1_000);
		modelArmor.stubFor(post(urlPathEqualTo(PROMPT_PATH)).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", containing(INJECTION)))
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));

		long started = System.nanoTime();
		SanitizationResult result = this.screening.sanitizeUserPrompt(text);

		assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the delayed windows are not waited for")
			.isLessThan(Duration.ofMillis(1_000));
		assertThat(WindowCutter.split(text, WindowSettings.DEFAULTS).windows()).hasSizeGreaterThan(20);
		int receivedByNow = received.count();
		awaitQuiet();
		assertThat(receivedByNow).isLessThanOrEqualTo(WindowSettings.DEFAULTS.parallelism());
		assertThat(received.count()).as("requests after the match").isZero();
	}

	@Test
	void noMoreWindowsThanTheParallelismAreEverInFlight() throws InterruptedException {
		String text = padding(200_000);
		answerAfter(100);
		for (int parallelism : new int[] { 1, 4, 7 }) {
			awaitQuiet();
			try (LongTextScreening screening = new LongTextScreening(this.template,
					new WindowSettings(8192, 1024, parallelism, 64))) {
				assertThat(screening.sanitizeUserPrompt(text).verdict()).isEqualTo(Verdict.NO_MATCH);
			}
			assertThat(filters.mostInFlight()).as("parallelism %d", parallelism).isEqualTo(parallelism);
		}
	}

	@Test
	void textThatNeedsMoreThanTheMostWindowsIsRefusedBeforeAnyRequest() {
		String text = padding(1_000_000);

		assertThatExceptionOfType(ModelArmorInputTooLargeException.class)
			.isThrownBy(() -> this.screening.sanitizeUserPrompt(text))
			.satisfies((ex) -> {
				assertThat(ex.size()).isEqualTo(1_000_000);
				assertThat(ex.limit()).isBetween(64L * 6000, 64L * 8192);
				assertThat(ex.getMessage()).startsWith("The prompt is 1000000 bytes (UTF-8)")
					.contains("more than 64 windows of 8192 bytes", "its first " + ex.limit() + " bytes",
							"modelarmor.screening.window.max-windows")
					.doesNotContain("harbour");
				assertThat(ex.outcome()).contains(CallOutcome.NON_RETRYABLE);
				assertThat(ex).isInstanceOf(ModelArmorException.class);
			});
		assertThatExceptionOfType(ModelArmorInputTooLargeException.class)
			.isThrownBy(() -> this.screening.sanitizeModelResponse("\uFDFA".repeat(200_000), "Why?"))
			.withMessageStartingWith("The model response is 600000 bytes");
		assertThat(received.count()).isZero();
	}

	@Test
	void sdpMatchesInSeveralWindowsStitchIntoTheTextOneCallWouldGive() {
		String text = cardsInsideWindows();
		String oneCall = this.template.sanitizeUserPrompt(text).deidentifiedText().orElseThrow();
		received.reset();

		SanitizationResult result = this.screening.sanitizeUserPrompt(text);

		assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(result.matchedFilters()).containsExactly("sdp");
		assertThat(result.deidentifiedText()).contains(oneCall);
		assertThat(oneCall).doesNotContain("4111").contains(CARD_REPLACEMENT);
		assertThat(promptTexts()).hasSize(WindowCutter.split(text, WindowSettings.DEFAULTS).windows().size());
		SdpDeidentifyResult deidentify = result.filterResults().get("sdp").sdpFilterResult().deidentifyResult();
		assertThat(deidentify.infoTypes()).containsExactly("CREDIT_CARD_NUMBER");
		assertThat(deidentify.transformedBytes()).isEqualTo(3 * 19);
	}

	@Test
	void anEntityInsideAnOverlapLeavesNoDeidentifiedText() {
		String base = padding(30_000);
		List<Window> windows = WindowCutter.split(base, WindowSettings.DEFAULTS).windows();
		int inOverlap = wordStart(base, (windows.get(1).start() + windows.get(0).end()) / 2);
		String text = base.substring(0, inOverlap) + "4111 1111 1111 1111 " + base.substring(inOverlap);
		List<Window> actual = WindowCutter.split(text, WindowSettings.DEFAULTS).windows();
		assertThat(actual.get(1).start()).isLessThan(inOverlap);
		assertThat(actual.get(0).end()).isGreaterThan(inOverlap + 19);

		SanitizationResult result = this.screening.sanitizeUserPrompt(text);

		assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(result.matchedFilters()).containsExactly("sdp");
		assertThat(result.deidentifiedText()).isEmpty();
	}

	@Test
	void anEntityAcrossAWindowEdgeLeavesNoDeidentifiedText() {
		String text = "x".repeat(8192 - 10) + "4111 1111 1111 1111 " + padding(20_000);
		List<Window> windows = WindowCutter.split(text, WindowSettings.DEFAULTS).windows();
		assertThat(windows.get(0).end()).isBetween(8192 - 9, 8192 + 9);

		SanitizationResult result = this.screening.sanitizeUserPrompt(text);

		assertThat(result.matchedFilters()).containsExactly("sdp");
		assertThat(result.deidentifiedText()).isEmpty();
	}

	@Test
	void theResponseCarriesTheTailOfThePromptToEveryWindow() {
		String prompt = "P".repeat(4000) + "the end of the question";
		String response = padding(20_000);

		assertThat(this.screening.sanitizeModelResponse(response, prompt).verdict()).isEqualTo(Verdict.NO_MATCH);
		List<JsonNode> sent = requestBodies(".*:sanitizeModelResponse");
		assertThat(sent).hasSize(3).allSatisfy((body) -> {
			assertThat(body.path("userPrompt").asString()).hasSize(1024).endsWith("the end of the question");
			assertThat(response).contains(body.path("modelResponseData").path("text").asString());
		});
		received.reset();
		this.screening.sanitizeModelResponse(response, null);
		this.screening.sanitizeModelResponse("Short answer", "Short question");
		List<JsonNode> later = requestBodies(".*:sanitizeModelResponse");
		assertThat(later).hasSize(4);
		assertThat(later).filteredOn((body) -> !body.has("userPrompt")).hasSize(3);
		assertThat(later).filteredOn((body) -> body.has("userPrompt"))
			.singleElement()
			.satisfies((body) -> assertThat(body.path("userPrompt").asString()).isEqualTo("Short question"));
	}

	@Test
	void anInterruptedCallerCancelsTheWindowsInFlightAndSendsNoMore() throws Exception {
		String text = padding(200_000);
		answerAfter(2_000);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
		Thread caller = new Thread(() -> {
			try {
				this.screening.sanitizeUserPrompt(text);
			}
			catch (ModelArmorException ex) {
				failure.set(ex);
				stillInterrupted.set(Thread.currentThread().isInterrupted());
			}
		});
		caller.start();
		while (filters.inFlight() < WindowSettings.DEFAULTS.parallelism()) {
			Thread.sleep(10);
		}
		long interrupted = System.nanoTime();
		caller.interrupt();
		caller.join(2_000);

		assertThat(caller.isAlive()).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - interrupted)).isLessThan(Duration.ofSeconds(2));
		assertThat(failure.get()).isInstanceOf(ModelArmorException.class)
			.hasMessage("The long-text screening of a prompt was interrupted after 0 of "
					+ WindowCutter.split(text, WindowSettings.DEFAULTS).windows().size() + " windows");
		assertThat(((ModelArmorException) failure.get()).outcome()).contains(CallOutcome.INTERRUPTED);
		assertThat(stillInterrupted.get()).as("the caller's interrupt flag is kept").isTrue();
		int receivedByNow = received.count();
		awaitQuiet();
		assertThat(receivedByNow).isEqualTo(WindowSettings.DEFAULTS.parallelism());
		assertThat(received.count()).as("requests after the interrupt").isZero();
	}

	@Test
	void windowsRunOnNamedDaemonThreadsThatCloseEnds() throws Exception {
		answerAfter(200);
		String text = padding(100_000);
		CompletableFuture<SanitizationResult> running = CompletableFuture
			.supplyAsync(() -> this.screening.sanitizeUserPrompt(text));
		while (filters.inFlight() == 0) {
			Thread.sleep(5);
		}
		List<Thread> windowThreads = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("modelarmor-window-"))
			.toList();
		assertThat(windowThreads).isNotEmpty().allSatisfy((thread) -> assertThat(thread.isDaemon()).isTrue());
		assertThat(running.get(10, TimeUnit.SECONDS).verdict()).isEqualTo(Verdict.NO_MATCH);

		this.screening.close();
		answerAfter(0);
		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> this.screening.sanitizeUserPrompt(text))
			.withMessageContaining("closed")
			.satisfies((ex) -> assertThat(ex.outcome()).contains(CallOutcome.INTERRUPTED));
		assertThat(this.screening.sanitizeUserPrompt("Short").verdict()).isEqualTo(Verdict.NO_MATCH);
		for (Thread thread : windowThreads) {
			thread.join(5_000);
			assertThat(thread.isAlive()).isFalse();
		}
	}

	@Test
	void withTemplateScreensWithTheOtherTemplateOnTheSameThreads() {
		// Clean text, so that no window stops the run early and every window is sent.
		String text = padding(30_000);
		LongTextScreening strict = this.screening.withTemplate("strict-template");

		assertThat(strict.sanitizeUserPrompt(text).verdict()).isEqualTo(Verdict.NO_MATCH);
		assertThat(received.bodies(".*/templates/strict-template:sanitizeUserPrompt"))
			.hasSize(WindowCutter.split(text, WindowSettings.DEFAULTS).windows().size());
		assertThat(received.count()).isEqualTo(WindowCutter.split(text, WindowSettings.DEFAULTS).windows().size());
		strict.close();
		assertThat(this.screening.sanitizeUserPrompt(text + INJECTION).verdict())
			.as("closing a derived one closes nothing")
			.isEqualTo(Verdict.MATCHED);
	}

	/** Text with a card number in the middle of three windows, none near an overlap. */
	private String cardsInsideWindows() {
		String base = padding(40_000);
		List<Window> windows = WindowCutter.split(base, WindowSettings.DEFAULTS).windows();
		StringBuilder text = new StringBuilder(base);
		for (int i = 4; i >= 0; i -= 2) {
			Window window = windows.get(i);
			int middle = wordStart(base, (window.start() + window.end()) / 2);
			text.insert(middle, "card 4111 1111 1111 " + (1000 + i) + " ");
		}
		assertThat(CARD_NUMBER.matcher(text).results()).hasSize(3);
		return text.toString();
	}

	private static int wordStart(String text, int near) {
		int index = near;
		while (text.charAt(index - 1) != ' ') {
			index--;
		}
		return index;
	}

	static List<String> promptTexts() {
		return requestBodies(".*:sanitizeUserPrompt").stream()
			.map((body) -> body.path("userPromptData").path("text").asString())
			.toList();
	}

	static List<JsonNode> requestBodies(String pathRegex) {
		return received.bodies(pathRegex);
	}

	static int nfkcBytes(String text) {
		return Normalizer.normalize(text, Normalizer.Form.NFKC).getBytes(StandardCharsets.UTF_8).length;
	}

	static void assertNoLoneSurrogate(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c)) {
				assertThat(i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))).isTrue();
				i++;
			}
			else {
				assertThat(Character.isLowSurrogate(c)).isFalse();
			}
		}
	}

}
