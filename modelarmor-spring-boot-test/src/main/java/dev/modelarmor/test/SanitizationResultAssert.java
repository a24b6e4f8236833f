package dev.modelarmor.test;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import org.assertj.core.api.AbstractObjectAssert;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on a {@link SanitizationResult}; start with {@link ModelArmorAssertions#assertThat(SanitizationResult)}.
 * Failure messages name states and filters, never the screened or de-identified text, except what the
 * assertion itself expected.
 */
public final class SanitizationResultAssert extends AbstractObjectAssert<SanitizationResultAssert, SanitizationResult> {

	SanitizationResultAssert(@Nullable SanitizationResult actual) {
		super(actual, SanitizationResultAssert.class);
	}

	/**
	 * Verifies that every filter ran and none matched: {@link Verdict#NO_MATCH}.
	 * @return this
	 */
	public SanitizationResultAssert isClean() {
		return hasVerdict(Verdict.NO_MATCH);
	}

	/**
	 * Verifies that the result does not say that the content was screened: {@link Verdict#NOT_SCREENED}.
	 * @return this
	 */
	public SanitizationResultAssert isNotScreened() {
		return hasVerdict(Verdict.NOT_SCREENED);
	}

	/**
	 * Verifies the verdict.
	 * @param verdict the expected verdict
	 * @return this
	 */
	public SanitizationResultAssert hasVerdict(Verdict verdict) {
		isNotNull();
		if (this.actual.verdict() != verdict) {
			failWithMessage("Expected the verdict %s but was %s (%s)", verdict, this.actual.verdict(), this.actual);
		}
		return this;
	}

	/**
	 * Verifies that the result matched on exactly these filters, in any order.
	 * @param filters the filters, e.g. {@code sdp}
	 * @return this
	 */
	public SanitizationResultAssert matched(String... filters) {
		hasVerdict(Verdict.MATCHED);
		Set<String> expected = new LinkedHashSet<>(Arrays.asList(filters));
		if (!this.actual.matchedFilters().equals(expected)) {
			failWithMessage("Expected matched filters %s but were %s", expected, this.actual.matchedFilters());
		}
		return this;
	}

	/**
	 * Verifies the de-identified text.
	 * @param text the expected text
	 * @return this
	 */
	public SanitizationResultAssert hasDeidentifiedText(String text) {
		isNotNull();
		Optional<String> deidentified = this.actual.deidentifiedText();
		if (deidentified.isEmpty()) {
			failWithMessage("Expected the de-identified text <%s> but the result has none", text);
		}
		else if (!deidentified.get().equals(text)) {
			failWithMessage("Expected the de-identified text <%s> but was <%s>", text, deidentified.get());
		}
		return this;
	}

	/**
	 * Verifies that the result carries no de-identified text.
	 * @return this
	 */
	public SanitizationResultAssert hasNoDeidentifiedText() {
		isNotNull();
		if (this.actual.deidentifiedText().isPresent()) {
			failWithMessage("Expected no de-identified text but the result has %s chars of it",
					this.actual.deidentifiedText().get().length());
		}
		return this;
	}

	/**
	 * Verifies the invocation result.
	 * @param invocationResult the expected invocation result
	 * @return this
	 */
	public SanitizationResultAssert hasInvocationResult(InvocationResult invocationResult) {
		isNotNull();
		if (this.actual.invocationResult() != invocationResult) {
			failWithMessage("Expected the invocation result %s but was %s", invocationResult,
					this.actual.invocationResult());
		}
		return this;
	}

}
