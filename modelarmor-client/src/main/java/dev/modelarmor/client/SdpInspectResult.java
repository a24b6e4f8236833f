package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The result of a Sensitive Data Protection inspection: what sensitive data was found and where.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param findings the findings; empty when absent
 * @param findingsTruncated whether the service left out some findings
 * @param extractedImageText the text Model Armor read in a screened image (Google's {@code extractedImageText}),
 * or {@code null} when absent. It is screened content: {@link #toString()} never shows it.
 */
public record SdpInspectResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, List<SdpFinding> findings, boolean findingsTruncated,
		@Nullable String extractedImageText) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param findings the findings
	 * @param findingsTruncated whether the service left out some findings
	 * @param extractedImageText the text read in a screened image, or {@code null}
	 */
	public SdpInspectResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		findings = Defaults.list(findings);
	}

	/**
	 * Creates a result without text read in an image.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param findings the findings
	 * @param findingsTruncated whether the service left out some findings
	 */
	public SdpInspectResult(FilterExecutionState executionState, List<MessageItem> messageItems,
			FilterMatchState matchState, List<SdpFinding> findings, boolean findingsTruncated) {
		this(executionState, messageItems, matchState, findings, findingsTruncated, null);
	}

	@Override
	public String toString() {
		return "SdpInspectResult[executionState=" + this.executionState + ", messageItems=" + this.messageItems
				+ ", matchState=" + this.matchState + ", findings=" + this.findings + ", findingsTruncated="
				+ this.findingsTruncated + ", extractedImageText="
				+ ((this.extractedImageText != null) ? this.extractedImageText.length() + " chars" : "none") + "]";
	}

}
