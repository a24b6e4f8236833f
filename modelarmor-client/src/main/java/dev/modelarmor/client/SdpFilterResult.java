package dev.modelarmor.client;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The result of the Sensitive Data Protection filter: an inspection or a de-identification (the
 * API's {@code oneof}), or for an image a redaction. The shared {@link FilterDetails} come from whichever
 * is present.
 *
 * @param inspectResult the inspection result, or {@code null}
 * @param deidentifyResult the de-identification result, or {@code null}
 * @param redactResult the redaction of an image, or {@code null}
 */
public record SdpFilterResult(@Nullable SdpInspectResult inspectResult,
		@Nullable SdpDeidentifyResult deidentifyResult, @Nullable SdpRedactResult redactResult) implements FilterDetails {

	/**
	 * Creates a result of text: an inspection or a de-identification.
	 * @param inspectResult the inspection result, or {@code null}
	 * @param deidentifyResult the de-identification result, or {@code null}
	 */
	public SdpFilterResult(@Nullable SdpInspectResult inspectResult, @Nullable SdpDeidentifyResult deidentifyResult) {
		this(inspectResult, deidentifyResult, null);
	}

	@Override
	public FilterExecutionState executionState() {
		FilterDetails details = details();
		return (details != null) ? details.executionState() : FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED;
	}

	@Override
	public FilterMatchState matchState() {
		FilterDetails details = details();
		return (details != null) ? details.matchState() : FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED;
	}

	@Override
	public List<MessageItem> messageItems() {
		FilterDetails details = details();
		return (details != null) ? details.messageItems() : List.of();
	}

	private @Nullable FilterDetails details() {
		if (this.inspectResult != null) {
			return this.inspectResult;
		}
		return (this.deidentifyResult != null) ? this.deidentifyResult : this.redactResult;
	}

}
