package dev.modelarmor.screening;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.MessageItem;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.MessageType;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.RaiFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.client.SdpFilterResult;
import dev.modelarmor.screening.WindowCutter.Window;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How {@link WindowMerge} makes one result of the results of a text's windows: pure unit tests over
 * constructed results, for the cases a server rarely sends.
 */
class WindowMergeTests {

	static final String A = "card 4111 then ";

	static final String SHARED = "shared part ";

	static final String B = "then card 4222 end";

	static final String TEXT = A + SHARED + B;

	static final List<Window> TWO = List.of(new Window(0, (A + SHARED).length()), new Window(A.length(), TEXT.length()));

	@Test
	void windowsWithoutAMatchMakeNoMatchOnlyWhenEveryWindowAnswered() {
		SanitizationResult merged = merge(noMatch(), noMatch());
		assertThat(merged.verdict()).isEqualTo(Verdict.NO_MATCH);
		assertThat(merged.invocationResult()).isEqualTo(InvocationResult.SUCCESS);
		assertThat(merged.filterResults()).containsOnlyKeys("pi_and_jailbreak");

		SanitizationResult unanswered = merge(noMatch(), null);
		assertThat(unanswered.verdict()).isEqualTo(Verdict.NOT_SCREENED);
	}

	@Test
	void aPartialAnswerThatTheTemplateIgnoresStaysAPassAndSaysSo() {
		SanitizationResult partial = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.PARTIAL,
				Map.of("rai", rai(FilterExecutionState.EXECUTION_SKIPPED, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED)),
				new SanitizationMetadata(500, "rai timed out", true));

		SanitizationResult ranEverything = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND,
				InvocationResult.SUCCESS,
				Map.of("rai", rai(FilterExecutionState.EXECUTION_SUCCESS, FilterMatchState.NO_MATCH_FOUND)),
				SanitizationMetadata.EMPTY);

		SanitizationResult merged = merge(ranEverything, partial);

		assertThat(merged.verdict()).isEqualTo(Verdict.NO_MATCH);
		assertThat(merged.invocationResult()).isEqualTo(InvocationResult.PARTIAL);
		assertThat(merged.sanitizationMetadata()).isEqualTo(partial.sanitizationMetadata());
		assertThat(merged.filterResults().get("rai").executionState()).isEqualTo(FilterExecutionState.EXECUTION_SKIPPED);
	}

	@Test
	void aWindowNotScreenedGivesItsStatesToTheWhole() {
		SanitizationResult failed = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.FAILURE,
				Map.of(), new SanitizationMetadata(13, null, false));

		SanitizationResult merged = merge(noMatch(), failed);

		assertThat(merged.verdict()).isEqualTo(Verdict.NOT_SCREENED);
		assertThat(merged.invocationResult()).isEqualTo(InvocationResult.FAILURE);
		assertThat(merged.sanitizationMetadata().errorCode()).isEqualTo(13);
	}

	@Test
	void aMatchWinsOverAWindowNotScreenedAndCarriesTheMatchingWindowsFilter() {
		SanitizationResult failed = new SanitizationResult(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED,
				InvocationResult.FAILURE, Map.of("pi_and_jailbreak", pi(FilterMatchState.NO_MATCH_FOUND)),
				SanitizationMetadata.EMPTY);
		SanitizationResult jailbreak = new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of("pi_and_jailbreak", pi(FilterMatchState.MATCH_FOUND)), SanitizationMetadata.EMPTY);

		SanitizationResult merged = merge(failed, jailbreak);

		assertThat(merged.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(merged.matchedFilters()).containsExactly("pi_and_jailbreak");
		assertThat(merged.filterResults().get("pi_and_jailbreak")).isSameAs(jailbreak.filterResults().get("pi_and_jailbreak"));
		assertThat(merged.invocationResult()).as("not every window was screened").isEqualTo(InvocationResult.FAILURE);
		assertThat(merge(jailbreak, null).invocationResult()).isEqualTo(InvocationResult.PARTIAL);
		assertThat(merge(jailbreak, noMatch()).invocationResult()).isEqualTo(InvocationResult.SUCCESS);
	}

	@Test
	void sdpMatchesStitchIntoOneDeidentifiedText() {
		SanitizationResult merged = merge(deidentified("card [CARD] then shared part "),
				deidentified("shared part then card [CARD] end"));

		assertThat(merged.verdict()).isEqualTo(Verdict.MATCHED);
		assertThat(merged.matchedFilters()).containsExactly("sdp");
		assertThat(merged.deidentifiedText()).contains("card [CARD] then shared part then card [CARD] end");
		SdpDeidentifyResult sdp = merged.filterResults().get("sdp").sdpFilterResult().deidentifyResult();
		assertThat(sdp.transformedBytes()).isEqualTo(8);
		assertThat(sdp.infoTypes()).containsExactly("CREDIT_CARD_NUMBER");
		assertThat(merge(deidentified("card [CARD] then shared part "), noMatch()).deidentifiedText())
			.contains("card [CARD] then shared part then card 4222 end");
	}

	@Test
	void piecesThatDisagreeOnTheirOverlapAreNotJoinedAndNoWindowsTextStandsInForTheWhole() {
		assertThat(merge(deidentified("card [CARD] then shared [X] "), noMatch()).deidentifiedText()).isEmpty();
		assertThat(merge(noMatch(), deidentified("[X] part then card [CARD] end")).deidentifiedText()).isEmpty();
		SanitizationResult alsoJailbreak = new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				filters(sdp("shared part then card [CARD] end", FilterMatchState.MATCH_FOUND),
						"pi_and_jailbreak", pi(FilterMatchState.MATCH_FOUND)),
				SanitizationMetadata.EMPTY);
		SanitizationResult merged = merge(deidentified("card [CARD] then shared part "), alsoJailbreak);
		assertThat(merged.matchedFilters()).containsExactly("sdp", "pi_and_jailbreak");
		assertThat(merged.deidentifiedText()).isEmpty();
		assertThat(merge(deidentified("card [CARD] then shared part "), null).deidentifiedText()).isEmpty();
	}

	@Test
	void windowsWithoutAMatchNeverLendTheirDeidentifiedText() {
		SanitizationResult claims = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS,
				filters(sdp("whatever the server says", FilterMatchState.NO_MATCH_FOUND), null, null),
				SanitizationMetadata.EMPTY);

		assertThat(merge(claims, noMatch()).deidentifiedText()).isEmpty();
		assertThat(merge(claims, noMatch()).filterResults().get("sdp").sdpFilterResult().deidentifyResult()
			.transformedBytes()).isEqualTo(4);
		assertThat(merge(deidentified("card [CARD] then shared part "), claims).deidentifiedText())
			.contains("card [CARD] then shared part then card 4222 end");
	}

	@Test
	void aChangedWindowWhoseOverlapsMeetCannotBeJoined() {
		String text = "aaaabbbbccccdddd";
		// The middle window [2, 14) shares [2, 8) with the first and [6, 14) with the last: they meet.
		List<Window> windows = List.of(new Window(0, 8), new Window(2, 14), new Window(6, 16));
		SanitizationResult[] unchanged = { noMatch(), noMatch(), noMatch() };
		assertThat(WindowMerge.stitch(text, windows, unchanged)).isEqualTo(text);
		SanitizationResult[] changed = { noMatch(), deidentified("aabbbbXXbbccccdd"), noMatch() };
		assertThat(WindowMerge.stitch(text, windows, changed)).isNull();
	}

	@Test
	void aFilterThatMatchedInSeveralWindowsKeepsTheFirstWindowsEntry() {
		SanitizationResult high = new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of("pi_and_jailbreak", pi(FilterMatchState.MATCH_FOUND)), SanitizationMetadata.EMPTY);
		FilterResult lowConfidence = new FilterResult(null, null, new PiAndJailbreakFilterResult(
				FilterExecutionState.EXECUTION_SUCCESS, List.of(), FilterMatchState.MATCH_FOUND,
				DetectionConfidenceLevel.LOW_AND_ABOVE), null, null, null);
		SanitizationResult low = new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of("pi_and_jailbreak", lowConfidence), SanitizationMetadata.EMPTY);

		assertThat(merge(high, low).filterResults().get("pi_and_jailbreak")).isSameAs(high.filterResults().get("pi_and_jailbreak"));
		assertThat(merge(low, high).filterResults().get("pi_and_jailbreak")).isSameAs(lowConfidence);
	}

	@Test
	void theDeidentificationEntryTakesTheStatesOfTheWindowWhereSdpMatched() {
		List<MessageItem> note = List.of(new MessageItem(MessageType.INFO, "window note"));
		SanitizationResult unmatched = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS,
				filters(new FilterResult(null, new SdpFilterResult(null, new SdpDeidentifyResult(
						FilterExecutionState.EXECUTION_SUCCESS, note, FilterMatchState.NO_MATCH_FOUND, null, 0, List.of())),
						null, null, null, null), null, null),
				SanitizationMetadata.EMPTY);

		SdpDeidentifyResult sdp = merge(unmatched, deidentified("shared part then card [CARD] end")).filterResults()
			.get("sdp")
			.sdpFilterResult()
			.deidentifyResult();

		assertThat(sdp.messageItems()).isEmpty();
		assertThat(merge(unmatched, unmatched).filterResults().get("sdp").sdpFilterResult().deidentifyResult()
			.transformedBytes()).isZero();
		assertThat(sdp.matchState()).isEqualTo(FilterMatchState.MATCH_FOUND);
		assertThat(sdp.data().text()).isEqualTo("card 4111 then shared part then card [CARD] end");
	}

	@Test
	void aWindowWhoseMiddleWasDeidentifiedToNothingStillJoins() {
		String text = "aaaaXXXXbbbbYYYYcccc";
		List<Window> windows = List.of(new Window(0, 8), new Window(4, 16), new Window(12, 20));
		SanitizationResult[] results = { noMatch(), deidentified("XXXXYYYY"), noMatch() };
		assertThat(WindowMerge.stitch(text, windows, results)).isEqualTo("aaaaXXXXYYYYcccc");
		assertThat(WindowMerge.stitch(text, windows, new SanitizationResult[] { noMatch(), null, noMatch() })).isNull();
	}

	@Test
	void transformedBytesAddUpWithoutOverflowing() {
		SanitizationResult huge = new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				filters(new FilterResult(null, new SdpFilterResult(null, new SdpDeidentifyResult(
						FilterExecutionState.EXECUTION_SUCCESS, List.of(), FilterMatchState.MATCH_FOUND,
						DataItem.text("shared part then card [CARD] end"), Long.MAX_VALUE - 1, List.of("PERSON_NAME"))),
						null, null, null, null), null, null),
				SanitizationMetadata.EMPTY);

		SdpDeidentifyResult sdp = merge(deidentified("card [CARD] then shared part "), huge).filterResults()
			.get("sdp")
			.sdpFilterResult()
			.deidentifyResult();

		assertThat(sdp.transformedBytes()).isEqualTo(Long.MAX_VALUE);
		assertThat(sdp.infoTypes()).containsExactly("CREDIT_CARD_NUMBER", "PERSON_NAME");
	}

	@Test
	void aFailedWindowGivesWayToAMatchOnlyWhenItIsAModelArmorFailure() {
		SanitizationResult[] matchedAndFailed = { deidentified("card [CARD] then shared part "), null };
		ModelArmorException unreachable = new ModelArmorException("Model Armor could not be reached");
		assertThat(WindowMerge.merge(TEXT, TWO, matchedAndFailed, unreachable).verdict()).isEqualTo(Verdict.MATCHED);
		assertThatExceptionOfType(ModelArmorException.class)
			.isThrownBy(() -> WindowMerge.merge(TEXT, TWO, new SanitizationResult[] { noMatch(), null }, unreachable))
			.isSameAs(unreachable);

		IllegalStateException broken = new IllegalStateException("No Model Armor template");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> WindowMerge.merge(TEXT, TWO, matchedAndFailed, broken))
			.isSameAs(broken);
		AssertionError error = new AssertionError("broken");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> WindowMerge.merge(TEXT, TWO, matchedAndFailed, error))
			.isSameAs(error);

		assertThat(WindowMerge.merge(TEXT, TWO, new SanitizationResult[] { noMatch(), noMatch() }, null).verdict())
			.isEqualTo(Verdict.NO_MATCH);
	}

	private static SanitizationResult merge(@Nullable SanitizationResult first, @Nullable SanitizationResult second) {
		return WindowMerge.merge(TEXT, TWO, new SanitizationResult[] { first, second });
	}

	static SanitizationResult noMatch() {
		return new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of("pi_and_jailbreak", pi(FilterMatchState.NO_MATCH_FOUND)), SanitizationMetadata.EMPTY);
	}

	static SanitizationResult deidentified(String text) {
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				filters(sdp(text, FilterMatchState.MATCH_FOUND), "pi_and_jailbreak", pi(FilterMatchState.NO_MATCH_FOUND)),
				SanitizationMetadata.EMPTY);
	}

	static FilterResult sdp(String text, FilterMatchState state) {
		return new FilterResult(null, new SdpFilterResult(null, new SdpDeidentifyResult(
				FilterExecutionState.EXECUTION_SUCCESS, List.of(), state, DataItem.text(text), 4,
				List.of("CREDIT_CARD_NUMBER"))), null, null, null, null);
	}

	static FilterResult pi(FilterMatchState state) {
		return new FilterResult(null, null, new PiAndJailbreakFilterResult(FilterExecutionState.EXECUTION_SUCCESS,
				List.of(), state, DetectionConfidenceLevel.HIGH), null, null, null);
	}

	static FilterResult rai(FilterExecutionState execution, FilterMatchState state) {
		return new FilterResult(new RaiFilterResult(execution, List.of(), state, Map.of()), null, null, null, null,
				null);
	}

	static Map<String, FilterResult> filters(FilterResult sdp, @Nullable String name, @Nullable FilterResult other) {
		Map<String, FilterResult> filters = new LinkedHashMap<>();
		filters.put("sdp", sdp);
		if (name != null && other != null) {
			filters.put(name, other);
		}
		return filters;
	}

}
