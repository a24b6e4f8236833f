package dev.modelarmor.logging;

import java.util.List;

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
		LogLineChecks.assertNoLineCarries(lines, SENSITIVE_MARKERS);
	}

	@Test
	void theRetriesLogAtDebugAndTheClientsLinesAreKeyValueShaped() {
		LogLineChecks.assertStarterLinesKeyValueShaped(lines);
	}

}
