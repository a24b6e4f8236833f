package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

/**
 * The result of the virus scan filter.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param scannedContentType the kind of content scanned; {@code SCANNED_CONTENT_TYPE_UNSPECIFIED}
 * when absent
 * @param scannedSize the number of bytes scanned; 0 when absent
 * @param virusDetails the viruses identified; empty when absent
 */
public record VirusScanFilterResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, ScannedContentType scannedContentType, long scannedSize,
		List<VirusDetail> virusDetails) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param scannedContentType the kind of content scanned
	 * @param scannedSize the number of bytes scanned
	 * @param virusDetails the viruses identified
	 */
	public VirusScanFilterResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		scannedContentType = Objects.requireNonNullElse(scannedContentType,
				ScannedContentType.SCANNED_CONTENT_TYPE_UNSPECIFIED);
		virusDetails = Defaults.list(virusDetails);
	}

}
