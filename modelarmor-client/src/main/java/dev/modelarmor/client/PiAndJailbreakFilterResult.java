package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

/**
 * The result of the prompt injection and jailbreak filter.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param confidenceLevel how confident the filter is; {@code DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED}
 * when absent
 */
public record PiAndJailbreakFilterResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, DetectionConfidenceLevel confidenceLevel) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param confidenceLevel how confident the filter is
	 */
	public PiAndJailbreakFilterResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		confidenceLevel = Objects.requireNonNullElse(confidenceLevel,
				DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED);
	}

}
