package dev.modelarmor.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SanitizationResult.Verdict;

/**
 * Sanitization results as Model Armor answers them, for tests that mock the client:
 *
 * <pre>{@code
 * given(modelArmor.sanitizeUserPrompt(anyString())).willReturn(ModelArmorResults.matched("pi_and_jailbreak"));
 * }</pre>
 *
 * Every result has the filters of a template with responsible AI ({@code rai}), Sensitive Data Protection
 * with de-identification ({@code sdp}), prompt injection and jailbreak ({@code pi_and_jailbreak}),
 * malicious URIs ({@code malicious_uris}) and CSAM ({@code csam}), as the API names them. The
 * {@link ModelArmorStandIn} answers with the same results.
 */
public final class ModelArmorResults {

	private ModelArmorResults() {
	}

	/**
	 * Every filter ran and none matched: {@link Verdict#NO_MATCH}.
	 * @return the result
	 */
	public static SanitizationResult clean() {
		return result(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS, FilterResults.noMatch());
	}

	/**
	 * The named filters matched: {@link Verdict#MATCHED}. A matched {@code sdp} comes without de-identified
	 * text (use {@link #deidentified(String)} for that), so a guard that de-identifies blocks it.
	 * @param filter a filter's name: {@code rai}, {@code sdp}, {@code pi_and_jailbreak},
	 * {@code malicious_uris} or {@code csam}
	 * @param more more filters that matched
	 * @return the result
	 * @throws IllegalArgumentException for another filter name
	 */
	public static SanitizationResult matched(String filter, String... more) {
		List<String> filters = new ArrayList<>();
		filters.add(filter);
		filters.addAll(List.of(more));
		FilterResults.requireKnown(filters);
		FilterResults results = FilterResults.noMatch();
		filters.forEach(results::match);
		return result(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, results);
	}

	/**
	 * Sensitive Data Protection alone matched and de-identified the content to the given text:
	 * {@link SanitizationResult#deidentifiedText()} returns it, and a guard with
	 * {@code onMatch = DEIDENTIFY} goes on with it.
	 * @param text the de-identified text, e.g. {@code "My card is [CREDIT_CARD_NUMBER]"}
	 * @return the result
	 */
	public static SanitizationResult deidentified(String text) {
		Objects.requireNonNull(text, "text must not be null");
		return deidentified(text, List.of());
	}

	/**
	 * No filter ran: {@code invocationResult} {@code FAILURE}, {@link Verdict#NOT_SCREENED}. A guard treats
	 * it like an outage (fail-closed by default).
	 * @return the result
	 */
	public static SanitizationResult notScreened() {
		return invocation(InvocationResult.FAILURE);
	}

	/**
	 * No filter matched, with the given invocation result: {@code SUCCESS} is {@link #clean()};
	 * {@code PARTIAL} means the {@code rai} filter did not run, {@code FAILURE} that none did. Both are
	 * {@link Verdict#NOT_SCREENED} (the template does not ignore partial failures).
	 * @param invocationResult whether the filters ran
	 * @return the result
	 */
	public static SanitizationResult invocation(InvocationResult invocationResult) {
		Objects.requireNonNull(invocationResult, "invocationResult must not be null");
		FilterResults results = FilterResults.noMatch();
		if (invocationResult == InvocationResult.PARTIAL) {
			results.skip(FilterResults.RAI);
		}
		else if (invocationResult != InvocationResult.SUCCESS) {
			FilterResults.ALL.forEach(results::skip);
		}
		return result(FilterMatchState.NO_MATCH_FOUND, invocationResult, results);
	}

	/**
	 * An answer without {@code filterMatchState}: it never says whether anything matched, so it is
	 * {@link Verdict#NOT_SCREENED}, although every filter reports that it ran.
	 * @return the result
	 */
	public static SanitizationResult noVerdict() {
		return result(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED, InvocationResult.SUCCESS,
				FilterResults.noMatch());
	}

	static SanitizationResult deidentified(String text, List<String> infoTypes) {
		return result(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS,
				FilterResults.noMatch().deidentify(text, infoTypes));
	}

	static SanitizationResult result(FilterMatchState state, InvocationResult invocationResult,
			FilterResults filters) {
		return new SanitizationResult(state, invocationResult, filters.toMap(),
				new SanitizationMetadata(0, null, false));
	}

}
