package dev.modelarmor.screening;

import java.util.Optional;
import java.util.Set;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SdpFilterResult;
import dev.modelarmor.client.SdpRedactResult;

/**
 * The one rule that sets sensitive data apart from every other match: a result where only the {@code sdp}
 * filter matched can go on with de-identified text, so the windows of a long text keep being screened
 * after it (each window's de-identified text is needed), their texts are joined, and the decision may be
 * to go on de-identified. Any other match blocks.
 */
final class SdpOnly {

	private static final Set<String> SDP = Set.of("sdp");

	private SdpOnly() {
	}

	/**
	 * Whether a result matched and {@code sdp} is the only filter that matched.
	 * @param result a result
	 * @return whether only sensitive data was found
	 */
	static boolean matched(SanitizationResult result) {
		return result.verdict() == Verdict.MATCHED && result.matchedFilters().equals(SDP);
	}

	/**
	 * The redacted image of a result in which only Sensitive Data Protection matched, if it sent a valid one.
	 * @param result a result
	 * @return the redacted image as an {@code IMAGE} item, or empty
	 */
	static Optional<DataItem> redactedImage(SanitizationResult result) {
		FilterResult sdp = result.filterResults().get("sdp");
		SdpFilterResult sdpResult = (sdp != null) ? sdp.sdpFilterResult() : null;
		SdpRedactResult redact = (sdpResult != null) ? sdpResult.redactResult() : null;
		return (redact != null) ? redact.redactedImageItem() : Optional.empty();
	}

}
