package dev.modelarmor.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of the responsible AI filter.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param raiFilterTypeResults the result of each category, keyed as the API sends them
 * ({@code sexually_explicit}, {@code hate_speech}, {@code harassment}, {@code dangerous}, …), in the
 * API's order; empty when absent
 */
public record RaiFilterResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, Map<String, RaiFilterTypeResult> raiFilterTypeResults) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param raiFilterTypeResults the result of each category
	 */
	public RaiFilterResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		raiFilterTypeResults = Defaults.map(raiFilterTypeResults);
	}

	/**
	 * The result of one responsible AI category.
	 *
	 * @param filterType the category; {@code RAI_FILTER_TYPE_UNSPECIFIED} when absent
	 * @param confidenceLevel how confident the filter is; {@code DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED}
	 * when absent (the API leaves it out when nothing matched)
	 * @param matchState whether the category matched
	 */
	public record RaiFilterTypeResult(RaiFilterType filterType, DetectionConfidenceLevel confidenceLevel,
			FilterMatchState matchState) {

		/**
		 * Creates a category result.
		 * @param filterType the category
		 * @param confidenceLevel how confident the filter is
		 * @param matchState whether the category matched
		 */
		public RaiFilterTypeResult {
			// Jackson passes null for an absent field; the API leaves out default values.
			filterType = Objects.requireNonNullElse(filterType, RaiFilterType.RAI_FILTER_TYPE_UNSPECIFIED);
			confidenceLevel = Objects.requireNonNullElse(confidenceLevel,
					DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED);
			matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		}

	}

}
