package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

/**
 * The result of a Sensitive Data Protection inspection: what sensitive data was found and where.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param findings the findings; empty when absent
 * @param findingsTruncated whether the service left out some findings
 */
public record SdpInspectResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, List<SdpFinding> findings, boolean findingsTruncated) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param findings the findings
	 * @param findingsTruncated whether the service left out some findings
	 */
	public SdpInspectResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		findings = Defaults.list(findings);
	}

}
