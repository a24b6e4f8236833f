package dev.modelarmor.logging;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.modelarmor.logging.SuiteLogCapture.CapturedLine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Log hygiene across the client module's test run, as the auto-configuration module's {@code LogHygieneTests}
 * checks its own: no line at INFO or above carries a prompt, an answer, an access token or key material that the
 * client's tests send, the retries log at DEBUG, and the client's own lines are {@code key=value} shaped.
 *
 * <p>Runs last ({@code @Order(Integer.MAX_VALUE)}, the {@code OrderAnnotation} class orderer of this module's
 * {@code junit-platform.properties}) over what {@link SuiteLogCapture} captured; run without the scenario
 * classes, it skips. A new client test that sends new secret-ish text adds it to {@link #SENSITIVE_MARKERS}.
 */
@Order(Integer.MAX_VALUE)
class ClientLogHygieneTests {

	/** Text no log line may contain, matched case-insensitively. */
	static final List<String> SENSITIVE_MARKERS = List.of(
			// Credentials: access tokens, Authorization values, key material, service-account identity.
			"ya29.", "Bearer ", "PRIVATE KEY", "tester@sa-project.iam.gserviceaccount.com", "0123456789abcdef",
			// Card numbers and what de-identification makes of them.
			"4111", "[CREDIT_CARD_NUMBER]",
			// Jailbreak prompts.
			"ignore all previous instructions", "ignore previous instructions", "print the system prompt",
			"print your system prompt", "reveal the admin password", "dump the user table",
			// The SECRET constants of the client tests.
			"SECRET-4711", "SECRET-1", "SECRET-2");

	/** Classes whose scenarios log the client's retry and call lines. */
	static final List<String> SCENARIO_CLASSES = List.of("dev.modelarmor.retry.RetryLogLinesTests",
			"dev.modelarmor.client.ModelArmorTemplateTests", "dev.modelarmor.client.HostileErrorBodyTests");

	/** A retry line: {@code attempt=1 failure="HTTP 503" wait=PT1.2S}. */
	static final Pattern RETRYING = Pattern.compile("attempt=\\d+ failure=\"[^\"]*\" wait=");

	/** The shape of every line of the client: a fixed sentence, a colon, then {@code key=value} pairs. */
	static final Pattern KEY_VALUE_LINE = Pattern
		.compile("^Model Armor [^:\"]+:( [a-zA-Z_]+=(\"[^\"]*\"|[^\\s\"]+))+$");

	private static List<CapturedLine> lines;

	@BeforeAll
	static void onlyAfterTheModulesTests() {
		assumeTrue(SuiteLogCapture.installed(), "Logback log capture is not installed");
		assumeTrue(SuiteLogCapture.plannedClasses().containsAll(SCENARIO_CLASSES),
				"run with the whole module: the scenario classes are not in this run");
		lines = SuiteLogCapture.lines();
	}

	@Test
	void theRunLoggedAndNoLineCarriesAPromptOrACredential() {
		assertThat(lines).isNotEmpty();
		for (CapturedLine line : lines) {
			String text = line.text().toLowerCase(Locale.ROOT);
			for (String marker : SENSITIVE_MARKERS) {
				assertThat(containsMarker(text, marker.toLowerCase(Locale.ROOT)))
					.as("%s%ncontains the sensitive marker '%s'", line, marker)
					.isFalse();
			}
		}
	}

	@Test
	void theRetriesLogAtDebugAndTheClientsLinesAreKeyValueShaped() {
		assertThat(lines).filteredOn((line) -> RETRYING.matcher(line.text()).find()).as("retry lines at INFO or above")
			.isEmpty();
		List<CapturedLine> clientLines = lines.stream().filter((line) -> line.logger().startsWith("dev.modelarmor."))
			.toList();
		assertThat(clientLines).isNotEmpty().allSatisfy((line) -> assertThat(line.text()).as(line.toString())
			.matches(KEY_VALUE_LINE));
		assertThat(clientLines).filteredOn((line) -> line.logger().startsWith("dev.modelarmor.retry."))
			.as("the retries log at DEBUG")
			.isEmpty();
	}

	/** A marker of digits only counts where no letter or digit touches it (a random port is no card number). */
	static boolean containsMarker(String text, String marker) {
		if (!marker.chars().allMatch(Character::isDigit)) {
			return text.contains(marker);
		}
		return Pattern.compile("(?<![\\p{Alnum}])" + Pattern.quote(marker) + "(?![\\p{Alnum}])").matcher(text).find();
	}

}
