package dev.modelarmor.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of screening a prompt or a model response.
 *
 * <p>Immutable. {@link #toString()} shows only states and filter names, never screened or
 * de-identified content, nor messages.
 *
 * @param filterMatchState whether any filter matched; {@code FILTER_MATCH_STATE_UNSPECIFIED} when
 * absent
 * @param invocationResult whether every filter ran; {@code INVOCATION_RESULT_UNSPECIFIED} when absent
 * @param filterResults the result of each filter, keyed as the API sends them ({@code rai},
 * {@code sdp}, {@code pi_and_jailbreak}, {@code malicious_uris}, {@code csam}, …) in the API's order;
 * empty when absent
 * @param sanitizationMetadata error details of the screening; empty when absent
 */
public record SanitizationResult(FilterMatchState filterMatchState, InvocationResult invocationResult,
		Map<String, FilterResult> filterResults, SanitizationMetadata sanitizationMetadata) {

	/**
	 * Creates a result.
	 * @param filterMatchState whether any filter matched
	 * @param invocationResult whether every filter ran
	 * @param filterResults the result of each filter, copied
	 * @param sanitizationMetadata error details of the screening
	 */
	public SanitizationResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		filterMatchState = Objects.requireNonNullElse(filterMatchState,
				FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		invocationResult = Objects.requireNonNullElse(invocationResult,
				InvocationResult.INVOCATION_RESULT_UNSPECIFIED);
		filterResults = Defaults.map(filterResults);
		sanitizationMetadata = Objects.requireNonNullElse(sanitizationMetadata, SanitizationMetadata.EMPTY);
	}

	/**
	 * Whether any filter matched.
	 * @return {@code true} when {@link #filterMatchState()} is {@link FilterMatchState#MATCH_FOUND}
	 */
	public boolean matchFound() {
		return this.filterMatchState == FilterMatchState.MATCH_FOUND;
	}

	/**
	 * What this result means for the content it screened, the one rule every integration applies:
	 * <ul>
	 * <li>{@link Verdict#MATCHED}: {@code filterMatchState} is {@code MATCH_FOUND}, whatever else the
	 * answer says;</li>
	 * <li>{@link Verdict#NO_MATCH}: {@code NO_MATCH_FOUND} and every filter ran: {@code invocationResult}
	 * {@code SUCCESS}, or {@code PARTIAL} when the template ignores partial invocation failures;</li>
	 * <li>{@link Verdict#NOT_SCREENED}: anything else, such as an absent, unspecified or unknown
	 * {@code filterMatchState}, or an {@code invocationResult} that is not usable. An answer that never
	 * said "no match" is not a pass.</li>
	 * </ul>
	 * @return the verdict
	 */
	public Verdict verdict() {
		if (this.filterMatchState == FilterMatchState.MATCH_FOUND) {
			return Verdict.MATCHED;
		}
		if (this.filterMatchState != FilterMatchState.NO_MATCH_FOUND) {
			return Verdict.NOT_SCREENED;
		}
		boolean everyFilterRan = this.invocationResult == InvocationResult.SUCCESS
				|| (this.invocationResult == InvocationResult.PARTIAL
						&& this.sanitizationMetadata.ignorePartialInvocationFailures());
		return everyFilterRan ? Verdict.NO_MATCH : Verdict.NOT_SCREENED;
	}

	/**
	 * The names of the filters that matched, e.g. {@code sdp}.
	 * @return an unmodifiable set in the API's order, possibly empty
	 */
	public Set<String> matchedFilters() {
		Set<String> matched = new LinkedHashSet<>();
		this.filterResults.forEach((name, result) -> {
			if (result.matched()) {
				matched.add(name);
			}
		});
		return Collections.unmodifiableSet(matched);
	}

	/**
	 * The text that Sensitive Data Protection de-identified, when the template de-identifies and the
	 * content was text.
	 * @return the de-identified text, or empty
	 */
	public Optional<String> deidentifiedText() {
		for (FilterResult result : this.filterResults.values()) {
			SdpFilterResult sdp = result.sdpFilterResult();
			SdpDeidentifyResult deidentify = (sdp != null) ? sdp.deidentifyResult() : null;
			DataItem data = (deidentify != null) ? deidentify.data() : null;
			if (data != null && data.text() != null) {
				return Optional.of(data.text());
			}
		}
		return Optional.empty();
	}

	@Override
	public String toString() {
		Map<String, FilterMatchState> states = new LinkedHashMap<>();
		this.filterResults.forEach((name, result) -> states.put(name, result.matchState()));
		return "SanitizationResult[filterMatchState=" + this.filterMatchState + ", invocationResult="
				+ this.invocationResult + ", filterResults=" + states + ", errorCode="
				+ this.sanitizationMetadata.errorCode() + "]";
	}

	/**
	 * What a {@link SanitizationResult} means for the content it screened: see {@link #verdict()}.
	 */
	public enum Verdict {

		/** At least one filter matched. */
		MATCHED,

		/** No filter matched and every filter ran: the content may pass. */
		NO_MATCH,

		/** The answer does not say that the content was screened: treat it like an outage. */
		NOT_SCREENED

	}

	/**
	 * Error details of a screening.
	 *
	 * <p>{@link #toString()} shows only the length of the error message.
	 *
	 * @param errorCode the error code, 0 when absent
	 * @param errorMessage the error message, or {@code null}
	 * @param ignorePartialInvocationFailures the template's setting of the same name, passed through
	 */
	public record SanitizationMetadata(long errorCode, @Nullable String errorMessage,
			boolean ignorePartialInvocationFailures) {

		/** No error and no settings passed through: the metadata of an answer that had none. */
		public static final SanitizationMetadata EMPTY = new SanitizationMetadata(0, null, false);

		@Override
		public String toString() {
			return "SanitizationMetadata[errorCode=" + this.errorCode + ", errorMessage="
					+ ((this.errorMessage != null) ? this.errorMessage.length() + " chars" : "null")
					+ ", ignorePartialInvocationFailures=" + this.ignorePartialInvocationFailures + "]";
		}

	}

}
