package dev.modelarmor.client;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Sensitive data that a Sensitive Data Protection inspection found. It says where, never what.
 *
 * @param infoType the info type, e.g. {@code EMAIL_ADDRESS}; empty when absent
 * @param likelihood how likely the finding is; {@code SDP_FINDING_LIKELIHOOD_UNSPECIFIED} when absent
 * @param location where the data is, or {@code null}
 */
public record SdpFinding(String infoType, SdpFindingLikelihood likelihood, @Nullable SdpFindingLocation location) {

	/**
	 * Creates a finding.
	 * @param infoType the info type
	 * @param likelihood how likely the finding is
	 * @param location where the data is, or {@code null}
	 */
	public SdpFinding {
		// Jackson passes null for an absent field; the API leaves out default values.
		infoType = Objects.requireNonNullElse(infoType, "");
		likelihood = Objects.requireNonNullElse(likelihood, SdpFindingLikelihood.SDP_FINDING_LIKELIHOOD_UNSPECIFIED);
	}

	/**
	 * Where a finding is in the screened content.
	 *
	 * @param byteRange the range in bytes, or {@code null}
	 * @param codepointRange the range in Unicode code points, or {@code null}
	 */
	public record SdpFindingLocation(@Nullable RangeInfo byteRange, @Nullable RangeInfo codepointRange) {

	}

}
