package dev.modelarmor.test;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on a {@link ModelArmorViolationException}, the exception of a call Model Armor blocked; start
 * with {@link ModelArmorAssertions#assertThat(ModelArmorViolationException)} or
 * {@link ModelArmorAssertions#assertThatViolationThrownBy}.
 */
public final class ModelArmorViolationAssert
		extends AbstractThrowableAssert<ModelArmorViolationAssert, ModelArmorViolationException> {

	ModelArmorViolationAssert(@Nullable ModelArmorViolationException actual) {
		super(actual, ModelArmorViolationAssert.class);
	}

	/**
	 * Verifies which side was blocked.
	 * @param phase {@link Phase#PROMPT} or {@link Phase#RESPONSE}
	 * @return this
	 */
	public ModelArmorViolationAssert hasPhase(Phase phase) {
		isNotNull();
		if (this.actual.phase() != phase) {
			failWithMessage("Expected the phase %s but was %s", phase, this.actual.phase());
		}
		return this;
	}

	/**
	 * Verifies that exactly these filters matched, in any order.
	 * @param filters the filters, e.g. {@code pi_and_jailbreak}
	 * @return this
	 */
	public ModelArmorViolationAssert hasMatchedFilters(String... filters) {
		isNotNull();
		Set<String> expected = new LinkedHashSet<>(Arrays.asList(filters));
		if (!this.actual.matchedFilters().equals(expected)) {
			failWithMessage("Expected matched filters %s but were %s", expected, this.actual.matchedFilters());
		}
		return this;
	}

	/**
	 * Assertions on the result that made the call blocked.
	 * @return the result's assertions
	 */
	public SanitizationResultAssert result() {
		isNotNull();
		return new SanitizationResultAssert(this.actual.result());
	}

}
