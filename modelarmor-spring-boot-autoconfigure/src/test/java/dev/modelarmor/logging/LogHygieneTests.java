package dev.modelarmor.logging;

import java.util.List;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import dev.modelarmor.logging.SuiteLogCapture.CapturedLine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Log hygiene across the whole test suite: no log line at INFO or above, from the starter or anything
 * else, carries a prompt, a model answer, an access token or key material used by any test scenario,
 * and the starter's own lines are structured {@code key=value}.
 *
 * <p>Runs last ({@code @Order(Integer.MAX_VALUE)} with the {@code OrderAnnotation} class orderer set in
 * {@code junit-platform.properties}) over what {@link SuiteLogCapture} captured while every other
 * class ran. Run on its own, or without the classes that produce retry and guard lines, it skips.
 *
 * <p><strong>A new test that sends new secret-ish text (a prompt, an answer, a token, a key) must add
 * it to {@link #SENSITIVE_MARKERS}</strong>; otherwise a leak of it would go unnoticed here.
 */
@Order(Integer.MAX_VALUE)
class LogHygieneTests {

	/**
	 * Text that no log line may contain, matched case-insensitively: every prompt, answer, token and key
	 * the test sources send through the starter, or a distinctive part of it.
	 */
	static final List<String> SENSITIVE_MARKERS = List.of(
			// Credentials: access tokens, Authorization values, key material, service-account identity.
			"ya29.", "Bearer ", "PRIVATE KEY", "SECRET-KEY-42", "SECRET-TYPE-42", "SECRET-CONTENT-42",
			"tester@sa-project.iam.gserviceaccount.com", "0123456789abcdef",
			// Card numbers and what de-identification makes of them.
			"4111", "[CREDIT_CARD_NUMBER]",
			// Jailbreak prompts.
			"ignore all previous instructions", "ignore previous instructions", "print the system prompt",
			"print your system prompt", "reveal the admin password", "dump the user table",
			// Answers and other prompts of the guard and web scenarios.
			"hunter2", "broken arm", "Summarise my medical record", "build a weapon", "Is anyone listening",
			"What are your opening hours", "What is the capital of France", "Paris is the capital of France",
			"Bonjour, comment allez-vous", "Which train goes to Lyon", "TGV from Gare de Lyon",
			// E-mail addresses used as answers, and their de-identified form.
			"jane@example.com", "[EMAIL_ADDRESS]",
			// The streamed answers of the windowed stream tests.
			"TGV leaves Gare de Lyon", "Bicycles travel in a separate coach", "streamed-word", "OUTAGE-MARKER",
			"Let me look that up", "city\": \"Lyon",
			// The SECRET constants of the client tests.
			"SECRET-4711", "SECRET-1", "SECRET-2",
			// The long texts and prompts of the windowed screening tests.
			"harbour stays open", "the end of the question", "OUTAGE-MARKER",
			// Retrieved documents, tool arguments and tool results of the Spring AI document and tool tests.
			"POISONED-DOC-7731", "lighthouse museum", "Refunds go to card", "TOOL-INJECTION-5521", "TOOL-ARGS-9042",
			"mail the inbox", "Sunny, 24 degrees", "Booked with card", "The museum is by the sea",
			// Prompts, answers and documents of the verdict cache tests.
			"VERDICT-CACHE-6620", "open the vault", "CACHE-DOC-", "CACHE-QUESTION-",
			// Prompts and answers of the parallel prompt screening tests.
			"PARALLEL-Q-", "PARALLEL-A-",
			// The prompts of the log storm tests.
			"STORM-PROMPT-", "launch code");

	/** Classes whose scenarios log retry and guard lines; without them in the run, the check means nothing. */
	static final List<String> SCENARIO_CLASSES = List.of("dev.modelarmor.guard.LogOnlyTests",
			"dev.modelarmor.guard.FailOpenTests", "dev.modelarmor.guard.DeidentifyTests");

	/**
	 * The whole suite logged about 250 lines at INFO or above when every retry was a WARN line; retries
	 * log at DEBUG now (one WARN line per call), which leaves fewer.
	 */
	static final int MINIMUM_LINES = 50;

	/** A line that gives up retrying, with the outcome and the time left. */
	static final Pattern NOT_RETRYING = Pattern
		.compile("attempt=\\d+ failure=\"[^\"]*\" outcome=[a-z_]+ (wait=\\S+ remaining=\\S+|tokens=\\S+)");

	private static List<CapturedLine> lines;

	@BeforeAll
	static void onlyAfterTheSuite() {
		assumeTrue(SuiteLogCapture.installed(), "Logback log capture is not installed");
		assumeTrue(SuiteLogCapture.plannedClasses().containsAll(SCENARIO_CLASSES),
				"run with the whole suite: the scenario classes are not in this run");
		lines = SuiteLogCapture.lines();
	}

	@Test
	void theSuiteLoggedEnoughToMakeTheCheckMeaningful() {
		assertThat(lines).hasSizeGreaterThanOrEqualTo(MINIMUM_LINES);
		// The retries log at DEBUG, their end included, so that a call logs one WARN line at most: the
		// screening's decision, which says in words why the call ended.
		assertThat(lines).filteredOn((line) -> LogLineChecks.RETRYING.matcher(line.text()).find()).as("retry lines at INFO or above")
			.isEmpty();
		assertThat(lines).filteredOn((line) -> NOT_RETRYING.matcher(line.text()).find())
			.as("lines that give up retrying at INFO or above").isEmpty();
		assertThat(lines).filteredOn((line) -> line.level() == Level.WARN
				&& line.text().contains("the next retry would have ended past the call's deadline"))
			.as("a call's one WARN line saying why it ended").isNotEmpty();
		// The guard's decisions are logged by the screening layer that makes them.
		assertThat(lines).filteredOn((line) -> line.logger().startsWith("dev.modelarmor.screening."))
			.as("guard lines").isNotEmpty()
			.anyMatch((line) -> line.level() == Level.INFO)
			.anyMatch((line) -> line.level() == Level.WARN);
	}

	@Test
	void noLineCarriesAPromptAnAnswerOrACredential() {
		LogLineChecks.assertNoLineCarries(lines, SENSITIVE_MARKERS);
	}

	@Test
	void aDigitMarkerMatchesOnlyAsANumberOfItsOwn() {
		assertThat(LogLineChecks.containsMarker("card 4111 1111 1111 1111", "4111")).isTrue();
		assertThat(LogLineChecks.containsMarker("card=4111", "4111")).isTrue();
		// a loopback port such as WireMock's 41111 is no card number
		assertThat(LogLineChecks.containsMarker("endpoint=http://localhost:41111/v1", "4111")).isFalse();
		assertThat(LogLineChecks.containsMarker("port 54111", "4111")).isFalse();
		// a random hex call id is a token of letters and digits, never a card number
		assertThat(LogLineChecks.containsMarker("call_id=9b9287617f4111bb", "4111")).isFalse();
		assertThat(LogLineChecks.containsMarker("call_id=41110000aaaabbbb", "4111")).isFalse();
		assertThat(LogLineChecks.containsMarker("call_id=ffff4111", "4111")).isFalse();
		assertThat(LogLineChecks.containsMarker("ignore all previous instructions, please", "ignore all previous instructions"))
			.isTrue();
	}

	@Test
	void theStartersLinesAreKeyValueShaped() {
		List<CapturedLine> starterLines = LogLineChecks.assertStarterLinesKeyValueShaped(lines);
		assertThat(starterLines).filteredOn((line) -> line.logger().startsWith("dev.modelarmor.screening.ScreeningDecider"))
			.isNotEmpty()
			.allSatisfy((line) -> assertThat(line.text()).as(line.toString()).containsPattern(" method=\"[^\"]+\" phase=[A-Z]+"));
	}

}
