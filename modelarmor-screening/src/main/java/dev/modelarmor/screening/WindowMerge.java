package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.client.SdpFilterResult;
import dev.modelarmor.screening.WindowCutter.Window;
import org.jspecify.annotations.Nullable;

/**
 * One {@link SanitizationResult} for a text screened in windows, from the results of its windows.
 *
 * <p>The verdict: any window matched, matched; else any window not screened, or not answered, not
 * screened; else no match. Each filter's entry is the one of the first window where it matched, else of
 * the first where it did not run to success, else of the first window. A Sensitive Data Protection
 * de-identification entry is rebuilt: its text is the windows' de-identified texts stitched together
 * when they can be, and absent otherwise, never the text of a single window.
 */
final class WindowMerge {

	private WindowMerge() {
	}

	/**
	 * Merges the results of the windows of a text when the call of one of them may have failed: a window
	 * that matched outweighs a {@link ModelArmorException}, which is thrown otherwise; any other failure is
	 * thrown whatever matched.
	 * @param text the text
	 * @param windows its windows
	 * @param results the result of each window, {@code null} for a window that was not answered
	 * @param failure the failure of a window's call, or {@code null} when none failed
	 * @return the merged result
	 * @throws ModelArmorException the failure, when no window matched
	 */
	static SanitizationResult merge(String text, List<Window> windows, @Nullable SanitizationResult[] results,
			@Nullable Throwable failure) {
		if (failure instanceof Error error) {
			throw error;
		}
		if (failure != null && !(failure instanceof ModelArmorException)) {
			throw (RuntimeException) failure;
		}
		boolean matched = false;
		for (SanitizationResult result : results) {
			matched |= (result != null && result.verdict() == Verdict.MATCHED);
		}
		if (failure != null && !matched) {
			throw (ModelArmorException) failure;
		}
		return merge(text, windows, results);
	}

	/**
	 * Merges the results of the windows of a text.
	 * @param text the text
	 * @param windows its windows
	 * @param results the result of each window, {@code null} for a window that was not answered
	 * @return the merged result
	 */
	static SanitizationResult merge(String text, List<Window> windows, @Nullable SanitizationResult[] results) {
		List<SanitizationResult> answered = new ArrayList<>();
		for (SanitizationResult result : results) {
			if (result != null) {
				answered.add(result);
			}
		}
		boolean complete = answered.size() == windows.size();
		if (answered.stream().anyMatch((result) -> result.verdict() == Verdict.MATCHED)) {
			String stitched = complete ? stitch(text, windows, results) : null;
			SanitizationResult incomplete = firstWith(answered, (result) -> result.invocationResult() != InvocationResult.SUCCESS);
			InvocationResult invocation = (incomplete != null) ? incomplete.invocationResult()
					: complete ? InvocationResult.SUCCESS : InvocationResult.PARTIAL;
			SanitizationMetadata metadata = (incomplete != null) ? incomplete.sanitizationMetadata()
					: SanitizationMetadata.EMPTY;
			return new SanitizationResult(FilterMatchState.MATCH_FOUND, invocation, filterResults(answered, stitched),
					metadata);
		}
		SanitizationResult notScreened = firstWith(answered, (result) -> result.verdict() == Verdict.NOT_SCREENED);
		if (notScreened != null) {
			return new SanitizationResult(notScreened.filterMatchState(), notScreened.invocationResult(),
					filterResults(answered, null), notScreened.sanitizationMetadata());
		}
		if (!complete) {
			// Never a pass for text that was not screened whole.
			return new SanitizationResult(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED,
					InvocationResult.INVOCATION_RESULT_UNSPECIFIED, filterResults(answered, null),
					SanitizationMetadata.EMPTY);
		}
		SanitizationResult partial = firstWith(answered, (result) -> result.invocationResult() != InvocationResult.SUCCESS);
		return new SanitizationResult(FilterMatchState.NO_MATCH_FOUND,
				(partial != null) ? partial.invocationResult() : InvocationResult.SUCCESS,
				filterResults(answered, null),
				(partial != null) ? partial.sanitizationMetadata() : SanitizationMetadata.EMPTY);
	}

	/**
	 * The text one call would have de-identified: each window's de-identified text when SDP alone matched
	 * in it, else its own text, joined where they overlap. {@code null} when a window matched another
	 * filter or sent no de-identified text, or when the pieces do not agree on an overlap (something was
	 * de-identified in it, or across a window's edge) and so cannot be joined safely.
	 */
	static @Nullable String stitch(String text, List<Window> windows, @Nullable SanitizationResult[] results) {
		StringBuilder stitched = new StringBuilder(text.length());
		for (int i = 0; i < windows.size(); i++) {
			SanitizationResult result = results[i];
			if (result == null) {
				return null;
			}
			String original = windows.get(i).of(text);
			String piece;
			if (result.verdict() == Verdict.NO_MATCH) {
				piece = original;
			}
			else if (SdpOnly.matched(result) && result.deidentifiedText().isPresent()) {
				piece = result.deidentifiedText().get();
			}
			else {
				return null;
			}
			String before = (i > 0) ? shared(text, windows.get(i - 1), windows.get(i)) : "";
			String after = (i + 1 < windows.size()) ? shared(text, windows.get(i), windows.get(i + 1)) : "";
			if (!piece.startsWith(before) || !piece.endsWith(after)) {
				return null;
			}
			int edges = before.length() + after.length();
			if (!piece.equals(original) && (original.length() < edges || piece.length() < edges)) {
				// The overlaps meet inside this window: there is no middle part to take the change.
				return null;
			}
			stitched.append(piece, before.length(), piece.length());
		}
		return stitched.toString();
	}

	/** The text that two consecutive windows share; a window never starts after the previous one ends. */
	private static String shared(String text, Window earlier, Window later) {
		return text.substring(later.start(), earlier.end());
	}

	private static @Nullable SanitizationResult firstWith(List<SanitizationResult> results,
			Predicate<SanitizationResult> condition) {
		for (SanitizationResult result : results) {
			if (condition.test(result)) {
				return result;
			}
		}
		return null;
	}

	private static Map<String, FilterResult> filterResults(List<SanitizationResult> answered,
			@Nullable String deidentifiedText) {
		Map<String, FilterResult> chosen = new LinkedHashMap<>();
		for (SanitizationResult result : answered) {
			result.filterResults()
				.forEach((name, filter) -> chosen.merge(name, filter,
						(earlier, later) -> (rank(later) > rank(earlier)) ? later : earlier));
		}
		chosen.replaceAll((name, filter) -> {
			List<SdpDeidentifyResult> parts = deidentifyResults(answered, name);
			return parts.isEmpty() ? filter : deidentification(filter, parts, deidentifiedText);
		});
		return chosen;
	}

	private static int rank(FilterResult filter) {
		if (filter.matched()) {
			return 2;
		}
		return (filter.executionState() != FilterExecutionState.EXECUTION_SUCCESS) ? 1 : 0;
	}

	private static List<SdpDeidentifyResult> deidentifyResults(List<SanitizationResult> answered, String name) {
		List<SdpDeidentifyResult> parts = new ArrayList<>();
		for (SanitizationResult result : answered) {
			FilterResult filter = result.filterResults().get(name);
			SdpFilterResult sdp = (filter != null) ? filter.sdpFilterResult() : null;
			if (sdp != null && sdp.deidentifyResult() != null) {
				parts.add(sdp.deidentifyResult());
			}
		}
		return parts;
	}

	/**
	 * A de-identification entry for the whole text: the chosen window's states, matched when any window
	 * matched, the info types and transformed bytes of all, and the stitched text or none.
	 */
	private static FilterResult deidentification(FilterResult chosen, List<SdpDeidentifyResult> parts,
			@Nullable String deidentifiedText) {
		SdpFilterResult chosenSdp = chosen.sdpFilterResult();
		SdpDeidentifyResult base = (chosenSdp != null && chosenSdp.deidentifyResult() != null)
				? chosenSdp.deidentifyResult() : parts.get(0);
		boolean matched = parts.stream().anyMatch((part) -> part.matchState() == FilterMatchState.MATCH_FOUND);
		long transformedBytes = 0;
		Set<String> infoTypes = new LinkedHashSet<>();
		for (SdpDeidentifyResult part : parts) {
			transformedBytes = saturatedAdd(transformedBytes, Math.max(0, part.transformedBytes()));
			infoTypes.addAll(part.infoTypes());
		}
		SdpDeidentifyResult merged = new SdpDeidentifyResult(base.executionState(), base.messageItems(),
				matched ? FilterMatchState.MATCH_FOUND : base.matchState(),
				(deidentifiedText != null) ? DataItem.text(deidentifiedText) : null, transformedBytes,
				List.copyOf(infoTypes));
		return new FilterResult(null, new SdpFilterResult(null, merged), null, null, null, null);
	}

	/** The sum of two counts that are not negative, or {@link Long#MAX_VALUE} when it overflows. */
	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (sum < 0) ? Long.MAX_VALUE : sum;
	}

}
