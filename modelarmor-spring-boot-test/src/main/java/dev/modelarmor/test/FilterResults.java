package dev.modelarmor.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.modelarmor.client.CsamFilterResult;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.MaliciousUriFilterResult;
import dev.modelarmor.client.MaliciousUriFilterResult.MaliciousUriMatchedItem;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.RaiFilterResult;
import dev.modelarmor.client.RaiFilterResult.RaiFilterTypeResult;
import dev.modelarmor.client.RaiFilterType;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.client.SdpFilterResult;
import org.jspecify.annotations.Nullable;

/**
 * The filter results of the template that the stand-in and {@link ModelArmorResults} imitate: responsible
 * AI, Sensitive Data Protection with de-identification, prompt injection and jailbreak, malicious URIs and
 * CSAM, in the order the API sends them.
 */
final class FilterResults {

	static final String RAI = "rai";

	static final String SDP = "sdp";

	static final String PI_AND_JAILBREAK = "pi_and_jailbreak";

	static final String MALICIOUS_URIS = "malicious_uris";

	static final String CSAM = "csam";

	/** Every filter of the imitated template, in the API's order. */
	static final List<String> ALL = List.of(RAI, SDP, PI_AND_JAILBREAK, MALICIOUS_URIS, CSAM);

	private static final List<RaiFilterType> RAI_TYPES = List.of(RaiFilterType.SEXUALLY_EXPLICIT,
			RaiFilterType.HATE_SPEECH, RaiFilterType.HARASSMENT, RaiFilterType.DANGEROUS);

	private final Map<String, FilterResult> results = new LinkedHashMap<>();

	private FilterResults() {
		for (String filter : ALL) {
			set(filter, FilterMatchState.NO_MATCH_FOUND);
		}
	}

	/**
	 * Every filter ran and none matched.
	 * @return the filter results, to change before {@link #toMap()}
	 */
	static FilterResults noMatch() {
		return new FilterResults();
	}

	/**
	 * Checks filter names against those the imitated template has.
	 * @param filters the names
	 * @throws IllegalArgumentException for a name the template does not have
	 */
	static void requireKnown(Iterable<String> filters) {
		for (String filter : filters) {
			if (!ALL.contains(filter)) {
				throw new IllegalArgumentException("Unknown filter '" + filter + "': use one of " + ALL);
			}
		}
	}

	/**
	 * Marks a filter as matched.
	 * @param filter the filter's name
	 * @return this
	 */
	FilterResults match(String filter) {
		set(filter, FilterMatchState.MATCH_FOUND);
		return this;
	}

	/**
	 * Marks Sensitive Data Protection as matched, with the de-identified text.
	 * @param text the de-identified text
	 * @param infoTypes the info types that were transformed
	 * @return this
	 */
	FilterResults deidentify(String text, List<String> infoTypes) {
		this.results.put(SDP, new FilterResult(null, sdp(FilterExecutionState.EXECUTION_SUCCESS,
				FilterMatchState.MATCH_FOUND, DataItem.text(text), infoTypes), null, null, null, null));
		return this;
	}

	/**
	 * Marks the malicious URI filter as matched on the given items.
	 * @param items the URIs and where they are
	 * @return this
	 */
	FilterResults maliciousUris(List<MaliciousUriMatchedItem> items) {
		this.results.put(MALICIOUS_URIS, new FilterResult(null, null, null, new MaliciousUriFilterResult(
				FilterExecutionState.EXECUTION_SUCCESS, List.of(), FilterMatchState.MATCH_FOUND, items), null, null));
		return this;
	}

	/**
	 * Marks a filter as skipped: it did not run, and says nothing about a match.
	 * @param filter the filter's name
	 * @return this
	 */
	FilterResults skip(String filter) {
		this.results.put(filter, result(filter, FilterExecutionState.EXECUTION_SKIPPED,
				FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED));
		return this;
	}

	/**
	 * The filter results.
	 * @return a map in the API's order
	 */
	Map<String, FilterResult> toMap() {
		return this.results;
	}

	private void set(String filter, FilterMatchState state) {
		this.results.put(filter, result(filter, FilterExecutionState.EXECUTION_SUCCESS, state));
	}

	private static FilterResult result(String filter, FilterExecutionState execution, FilterMatchState state) {
		boolean matched = state == FilterMatchState.MATCH_FOUND;
		return switch (filter) {
			case RAI -> new FilterResult(rai(execution, state), null, null, null, null, null);
			case SDP -> new FilterResult(null, sdp(execution, state, null, List.of()), null, null, null, null);
			case PI_AND_JAILBREAK -> new FilterResult(null, null, new PiAndJailbreakFilterResult(execution, List.of(),
					state, matched ? DetectionConfidenceLevel.HIGH
							: DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED),
					null, null, null);
			case MALICIOUS_URIS -> new FilterResult(null, null, null,
					new MaliciousUriFilterResult(execution, List.of(), state, List.of()), null, null);
			case CSAM -> new FilterResult(null, null, null, null, new CsamFilterResult(execution, List.of(), state),
					null);
			default -> throw new IllegalArgumentException("Unknown filter '" + filter + "': use one of " + ALL);
		};
	}

	private static RaiFilterResult rai(FilterExecutionState execution, FilterMatchState state) {
		Map<String, RaiFilterTypeResult> types = new LinkedHashMap<>();
		if (execution == FilterExecutionState.EXECUTION_SUCCESS) {
			for (RaiFilterType type : RAI_TYPES) {
				// A matched responsible-AI filter names a category: the stand-in's is always "dangerous".
				boolean matched = state == FilterMatchState.MATCH_FOUND && type == RaiFilterType.DANGEROUS;
				types.put(type.name().toLowerCase(Locale.ROOT), new RaiFilterTypeResult(type,
						matched ? DetectionConfidenceLevel.HIGH : DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED,
						matched ? FilterMatchState.MATCH_FOUND : FilterMatchState.NO_MATCH_FOUND));
			}
		}
		return new RaiFilterResult(execution, List.of(), state, types);
	}

	private static SdpFilterResult sdp(FilterExecutionState execution, FilterMatchState state, @Nullable DataItem data,
			List<String> infoTypes) {
		return new SdpFilterResult(null, new SdpDeidentifyResult(execution, List.of(), state, data, 0, infoTypes));
	}

}
