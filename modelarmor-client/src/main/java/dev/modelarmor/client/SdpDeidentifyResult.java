package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The result of a Sensitive Data Protection de-identification: the content with its sensitive data
 * transformed. The service sends it only for templates with an SDP de-identify template.
 *
 * <p>{@link #toString()} never shows the de-identified content.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param data the de-identified content (its text is at {@code data.text}), or {@code null}
 * @param transformedBytes the number of bytes transformed; 0 when absent
 * @param infoTypes the info types that were transformed, e.g. {@code EMAIL_ADDRESS}; empty when absent
 */
public record SdpDeidentifyResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, @Nullable DataItem data, long transformedBytes,
		List<String> infoTypes) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param data the de-identified content, or {@code null}
	 * @param transformedBytes the number of bytes transformed
	 * @param infoTypes the info types that were transformed
	 */
	public SdpDeidentifyResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		infoTypes = Defaults.list(infoTypes);
	}

}
