package dev.modelarmor.screening.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.modelarmor.client.CsamFilterResult;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterDetails;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.MaliciousUriFilterResult;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.RaiFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.ScannedContentType;
import dev.modelarmor.client.SdpFilterResult;
import dev.modelarmor.client.SdpInspectResult;
import dev.modelarmor.client.VirusScanFilterResult;
import org.jspecify.annotations.Nullable;

/**
 * A verdict as a {@link VerdictCache} stores it: whether the text matched, which filters matched, and
 * when the verdict expires; never any of the text, nor any text derived from it (a result that carries
 * de-identified text is not cached, and URIs, findings and messages are not kept). Strings, enums and a
 * number only. The cache holds it as a signed JSON string ({@link SignedVerdicts}), never as a Java
 * object: Java deserialization of what others can write to a shared cache is a risk of its own.
 *
 * <p>A value read back from a shared cache is input like any other: {@link VerdictCache} uses it only when
 * its signature verifies and it {@linkplain #usableFor(String, long, long) is usable for the key it was
 * looked up with}.
 *
 * @param key the key it was stored under, so that a value copied to another key is not used there
 * @param verdict {@link Verdict#MATCHED} or {@link Verdict#NO_MATCH}
 * @param matchedFilters the filters that matched, empty for {@link Verdict#NO_MATCH}
 * @param expiresAt when it expires, in milliseconds since the epoch
 */
public record CachedVerdict(String key, Verdict verdict, List<MatchedFilter> matchedFilters, long expiresAt) {

	/** Filter names as the API sends them (rai, sdp, pi_and_jailbreak, …): short, lower case. */
	private static final Pattern FILTER_NAME = Pattern.compile("[a-z0-9_]{1,64}");

	/** More filters than a template has: a value with more is not one this starter stored. */
	private static final int MAX_FILTERS = 16;

	/**
	 * Creates a cached verdict.
	 * @param key the key it is stored under
	 * @param verdict the verdict
	 * @param matchedFilters the filters that matched, copied
	 * @param expiresAt when it expires, in milliseconds since the epoch
	 */
	public CachedVerdict {
		matchedFilters = List.copyOf(matchedFilters);
	}

	/**
	 * What of a result may be cached, if anything: only a usable verdict ({@code MATCHED} or
	 * {@code NO_MATCH}) whose matched filters are all of a kind this client knows, and that carries no
	 * de-identified text.
	 * @param key the key to store it under
	 * @param result what Model Armor answered
	 * @param expiresAt when it expires, in milliseconds since the epoch
	 * @return the verdict to store, or {@code null} when the result must not be cached
	 */
	static @Nullable CachedVerdict of(String key, SanitizationResult result, long expiresAt) {
		Verdict verdict = result.verdict();
		if (verdict == Verdict.NOT_SCREENED || result.deidentifiedText().isPresent()) {
			return null;
		}
		List<MatchedFilter> matched = new ArrayList<>();
		for (Map.Entry<String, FilterResult> filter : result.filterResults().entrySet()) {
			if (!filter.getValue().matched()) {
				continue;
			}
			FilterKind kind = FilterKind.of(filter.getValue());
			if (kind == null || !FILTER_NAME.matcher(filter.getKey()).matches()) {
				return null;
			}
			matched.add(new MatchedFilter(filter.getKey(), kind));
		}
		// "No match" while a filter says it matched is not a verdict to repeat.
		if ((verdict == Verdict.NO_MATCH && !matched.isEmpty()) || matched.size() > MAX_FILTERS) {
			return null;
		}
		return new CachedVerdict(key, verdict, matched, expiresAt);
	}

	/**
	 * Whether this verdict may stand in for a Model Armor call: stored under this key, a verdict this
	 * starter caches, known filters, and an expiry that has not passed and is no later than a value stored
	 * now could have. Anything else was not stored by this starter as it is, or is stale.
	 * @param lookedUp the key it was looked up with
	 * @param now the time now, in milliseconds since the epoch
	 * @param latestExpiry the latest expiry a verdict stored now could have
	 * @return whether it is usable
	 */
	boolean usableFor(String lookedUp, long now, long latestExpiry) {
		if (!lookedUp.equals(this.key) || this.expiresAt <= now || this.expiresAt > latestExpiry) {
			return false;
		}
		if (this.verdict == Verdict.NO_MATCH) {
			return this.matchedFilters.isEmpty();
		}
		if (this.verdict != Verdict.MATCHED || this.matchedFilters.size() > MAX_FILTERS) {
			return false;
		}
		return this.matchedFilters.stream().allMatch((filter) -> FILTER_NAME.matcher(filter.name()).matches());
	}

	/**
	 * The result this verdict stands for: the same verdict and matched filters, without the details of
	 * each filter (confidence levels, findings, URIs), which are not cached.
	 * @return the result
	 */
	SanitizationResult toResult() {
		Map<String, FilterResult> filters = new LinkedHashMap<>();
		for (MatchedFilter filter : this.matchedFilters) {
			filters.put(filter.name(), filter.kind().matched());
		}
		boolean matched = this.verdict == Verdict.MATCHED;
		return new SanitizationResult(matched ? FilterMatchState.MATCH_FOUND : FilterMatchState.NO_MATCH_FOUND,
				InvocationResult.SUCCESS, filters, SanitizationResult.SanitizationMetadata.EMPTY);
	}

	/**
	 * A filter that matched.
	 *
	 * @param name its name as the API sent it, e.g. {@code pi_and_jailbreak}
	 * @param kind which kind of filter it is
	 */
	public record MatchedFilter(String name, FilterKind kind) {

		/**
		 * Creates a matched filter.
		 * @param name its name
		 * @param kind its kind
		 */
		public MatchedFilter {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(kind, "kind");
		}

	}

	/**
	 * The kinds of filter that a {@link FilterResult} can hold.
	 */
	public enum FilterKind {

		/** Responsible AI. */
		RAI,

		/** Sensitive Data Protection. */
		SDP,

		/** Prompt injection and jailbreak. */
		PI_AND_JAILBREAK,

		/** Malicious URIs. */
		MALICIOUS_URIS,

		/** Child sexual abuse material. */
		CSAM,

		/** Virus scan. */
		VIRUS_SCAN;

		static @Nullable FilterKind of(FilterResult result) {
			FilterDetails details = result.details().orElse(null);
			if (details instanceof RaiFilterResult) {
				return RAI;
			}
			if (details instanceof SdpFilterResult) {
				return SDP;
			}
			if (details instanceof PiAndJailbreakFilterResult) {
				return PI_AND_JAILBREAK;
			}
			if (details instanceof MaliciousUriFilterResult) {
				return MALICIOUS_URIS;
			}
			if (details instanceof CsamFilterResult) {
				return CSAM;
			}
			if (details instanceof VirusScanFilterResult) {
				return VIRUS_SCAN;
			}
			return null;
		}

		/** A result of this kind that matched, with no details. */
		FilterResult matched() {
			FilterExecutionState ran = FilterExecutionState.EXECUTION_SUCCESS;
			FilterMatchState match = FilterMatchState.MATCH_FOUND;
			return switch (this) {
				case RAI -> new FilterResult(new RaiFilterResult(ran, List.of(), match, Map.of()), null, null, null,
						null, null);
				case SDP -> new FilterResult(null,
						new SdpFilterResult(new SdpInspectResult(ran, List.of(), match, List.of(), false), null), null,
						null, null, null);
				case PI_AND_JAILBREAK -> new FilterResult(null, null, new PiAndJailbreakFilterResult(ran, List.of(),
						match, DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED), null, null, null);
				case MALICIOUS_URIS -> new FilterResult(null, null, null,
						new MaliciousUriFilterResult(ran, List.of(), match, List.of()), null, null);
				case CSAM -> new FilterResult(null, null, null, null, new CsamFilterResult(ran, List.of(), match),
						null);
				case VIRUS_SCAN -> new FilterResult(null, null, null, null, null, new VirusScanFilterResult(ran,
						List.of(), match, ScannedContentType.SCANNED_CONTENT_TYPE_UNSPECIFIED, 0, List.of()));
			};
		}

	}

}
