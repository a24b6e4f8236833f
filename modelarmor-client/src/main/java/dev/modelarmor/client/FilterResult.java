package dev.modelarmor.client;

import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The result of one filter. Like the API's {@code oneof}, one component is set and tells the kind
 * of filter; none is set for a kind of filter that this client does not know.
 *
 * @param raiFilterResult the responsible AI result, or {@code null}
 * @param sdpFilterResult the Sensitive Data Protection result, or {@code null}
 * @param piAndJailbreakFilterResult the prompt injection and jailbreak result, or {@code null}
 * @param maliciousUriFilterResult the malicious URI result, or {@code null}
 * @param csamFilterFilterResult the CSAM result, or {@code null} (the doubled "Filter" is the API's
 * field name)
 * @param virusScanFilterResult the virus scan result, or {@code null}
 */
public record FilterResult(@Nullable RaiFilterResult raiFilterResult, @Nullable SdpFilterResult sdpFilterResult,
		@Nullable PiAndJailbreakFilterResult piAndJailbreakFilterResult,
		@Nullable MaliciousUriFilterResult maliciousUriFilterResult,
		@Nullable CsamFilterResult csamFilterFilterResult,
		@Nullable VirusScanFilterResult virusScanFilterResult) {

	/**
	 * The result of whichever kind is set.
	 * @return the details, or empty for a kind that this client does not know
	 */
	public Optional<FilterDetails> details() {
		return Stream.<@Nullable FilterDetails>of(this.raiFilterResult, this.sdpFilterResult,
				this.piAndJailbreakFilterResult, this.maliciousUriFilterResult, this.csamFilterFilterResult,
				this.virusScanFilterResult)
			.flatMap(Stream::ofNullable)
			.findFirst();
	}

	/**
	 * Whether the filter ran.
	 * @return the execution state; {@code FILTER_EXECUTION_STATE_UNSPECIFIED} for an unknown kind
	 */
	public FilterExecutionState executionState() {
		return details().map(FilterDetails::executionState)
			.orElse(FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
	}

	/**
	 * Whether the filter matched.
	 * @return the match state; {@code FILTER_MATCH_STATE_UNSPECIFIED} for an unknown kind
	 */
	public FilterMatchState matchState() {
		return details().map(FilterDetails::matchState).orElse(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
	}

	/**
	 * Whether the filter matched.
	 * @return {@code true} for {@link FilterMatchState#MATCH_FOUND}
	 */
	public boolean matched() {
		return matchState() == FilterMatchState.MATCH_FOUND;
	}

}
