package dev.modelarmor.test;

import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;

import static dev.modelarmor.test.ModelArmorAssertions.assertThat;
import static dev.modelarmor.test.ModelArmorAssertions.assertThatViolationThrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The assertions pass on what they describe and fail, with a message that names states and filters, on
 * anything else. Imported next to AssertJ's own {@code assertThat}, which they must not clash with.
 */
class ModelArmorAssertionsTests {

	private static final ModelArmorViolationException BLOCKED = new ModelArmorViolationException(Phase.PROMPT,
			ModelArmorResults.matched("pi_and_jailbreak"));

	@Test
	void resultAssertionsPassOnWhatTheyDescribe() {
		assertThat(ModelArmorResults.clean()).isClean().hasVerdict(Verdict.NO_MATCH).hasNoDeidentifiedText()
			.hasInvocationResult(InvocationResult.SUCCESS);
		assertThat(ModelArmorResults.matched("rai", "csam")).matched("csam", "rai");
		assertThat(ModelArmorResults.deidentified("[X]")).matched("sdp").hasDeidentifiedText("[X]");
		assertThat(ModelArmorResults.notScreened()).isNotScreened();
	}

	@Test
	void resultAssertionsFailOnAnythingElse() {
		assertFails(() -> assertThat(ModelArmorResults.matched("rai")).isClean(),
				"Expected the verdict NO_MATCH but was MATCHED");
		assertFails(() -> assertThat(ModelArmorResults.matched("rai")).matched("rai", "sdp"),
				"Expected matched filters [rai, sdp] but were [rai]");
		assertFails(() -> assertThat(ModelArmorResults.clean()).matched("rai"), "Expected the verdict MATCHED");
		assertFails(() -> assertThat(ModelArmorResults.clean()).hasDeidentifiedText("[X]"), "the result has none");
		assertFails(() -> assertThat(ModelArmorResults.deidentified("[Y]")).hasDeidentifiedText("[X]"),
				"Expected the de-identified text <[X]> but was <[Y]>");
		assertFails(() -> assertThat(ModelArmorResults.deidentified("secret")).hasNoDeidentifiedText(),
				"has 6 chars of it");
		assertFails(() -> assertThat(ModelArmorResults.clean()).isNotScreened(), "NOT_SCREENED");
		assertFails(() -> assertThat(ModelArmorResults.clean()).hasInvocationResult(InvocationResult.PARTIAL),
				"Expected the invocation result PARTIAL but was SUCCESS");
		assertFails(() -> assertThat((dev.modelarmor.client.SanitizationResult) null).isClean(), "null");
	}

	@Test
	void violationAssertionsPassOnWhatTheyDescribe() {
		assertThat(BLOCKED).hasPhase(Phase.PROMPT).hasMatchedFilters("pi_and_jailbreak").result()
			.matched("pi_and_jailbreak");
		assertThatViolationThrownBy(() -> {
			throw BLOCKED;
		}).hasPhase(Phase.PROMPT);
	}

	@Test
	void violationAssertionsFailOnAnythingElse() {
		assertFails(() -> assertThat(BLOCKED).hasPhase(Phase.RESPONSE), "Expected the phase RESPONSE but was PROMPT");
		assertFails(() -> assertThat(BLOCKED).hasMatchedFilters("sdp"),
				"Expected matched filters [sdp] but were [pi_and_jailbreak]");
		assertFails(() -> assertThatViolationThrownBy(() -> {
		}), "Expected a ModelArmorViolationException but nothing was thrown");
		assertFails(() -> assertThatViolationThrownBy(() -> {
			throw new IllegalStateException("boom");
		}), "but java.lang.IllegalStateException was thrown");
	}

	private static void assertFails(Runnable assertion, String message) {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(assertion::run).withMessageContaining(message);
	}

}
