package dev.modelarmor.test;

import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ModelArmorResultsTests {

	@Test
	void cleanMeansEveryFilterRanAndNoneMatched() {
		SanitizationResult clean = ModelArmorResults.clean();

		assertThat(clean.verdict()).isEqualTo(Verdict.NO_MATCH);
		assertThat(clean.matchFound()).isFalse();
		assertThat(clean.filterResults()).containsOnlyKeys("rai", "sdp", "pi_and_jailbreak", "malicious_uris", "csam");
		assertThat(clean.filterResults().values()).allSatisfy(
				(filter) -> assertThat(filter.executionState()).isEqualTo(FilterExecutionState.EXECUTION_SUCCESS));
		assertThat(clean.deidentifiedText()).isEmpty();
	}

	@Test
	void matchedNamesItsFiltersAndNoOthers() {
		SanitizationResult matched = ModelArmorResults.matched("pi_and_jailbreak", "rai");

		assertThat(matched.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(matched.matchedFilters()).containsExactly("rai", "pi_and_jailbreak");
		assertThat(matched.deidentifiedText()).isEmpty();
	}

	@Test
	void aMatchedSdpAloneCarriesNoDeidentifiedText() {
		assertThat(ModelArmorResults.matched("sdp").deidentifiedText()).isEmpty();
	}

	@Test
	void deidentifiedIsAnSdpMatchWithTheText() {
		SanitizationResult deidentified = ModelArmorResults.deidentified("My card is [CREDIT_CARD_NUMBER]");

		assertThat(deidentified.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(deidentified.matchedFilters()).containsExactly("sdp");
		assertThat(deidentified.deidentifiedText()).hasValue("My card is [CREDIT_CARD_NUMBER]");
	}

	@Test
	void notScreenedResultsSayTheContentWasNotScreened() {
		assertThat(ModelArmorResults.notScreened().verdict()).isEqualTo(Verdict.NOT_SCREENED);
		assertThat(ModelArmorResults.notScreened().invocationResult()).isEqualTo(InvocationResult.FAILURE);
		assertThat(ModelArmorResults.notScreened().filterResults().values()).allSatisfy(
				(filter) -> assertThat(filter.executionState()).isEqualTo(FilterExecutionState.EXECUTION_SKIPPED));
		SanitizationResult partial = ModelArmorResults.invocation(InvocationResult.PARTIAL);
		assertThat(partial.verdict()).isEqualTo(Verdict.NOT_SCREENED);
		assertThat(partial.filterResults().get("rai").executionState()).isEqualTo(FilterExecutionState.EXECUTION_SKIPPED);
		assertThat(partial.filterResults().get("sdp").executionState()).isEqualTo(FilterExecutionState.EXECUTION_SUCCESS);
		assertThat(ModelArmorResults.invocation(InvocationResult.SUCCESS)).isEqualTo(ModelArmorResults.clean());
		assertThat(ModelArmorResults.noVerdict().verdict()).isEqualTo(Verdict.NOT_SCREENED);
	}

	@Test
	void anUnknownFilterNameIsRefusedWithTheKnownOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorResults.matched("sdp", "pii"))
			.withMessage("Unknown filter 'pii': use one of [rai, sdp, pi_and_jailbreak, malicious_uris, csam]");
	}

	@Test
	void resultsShowNoContentWhenPrinted() {
		assertThat(ModelArmorResults.deidentified("secret [X]").toString()).doesNotContain("secret");
	}

}
