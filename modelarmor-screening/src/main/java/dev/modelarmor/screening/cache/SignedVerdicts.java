package dev.modelarmor.screening.cache;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.screening.cache.CachedVerdict.FilterKind;
import dev.modelarmor.screening.cache.CachedVerdict.MatchedFilter;
import dev.modelarmor.screening.cache.VerdictSigningKeys.Signature;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored form of a {@link CachedVerdict}: a JSON string that carries the verdict, the id of the key
 * that signed it and an HmacSHA256 signature over the stored key and every field of the verdict. A string,
 * so that any cache holds it and Redis stores it as text, never as a Java-serialized object:
 * <pre>{"kid":"…","sig":"…","key":"v2:…","verdict":"NO_MATCH","filters":[],"expiresAt":1767225600000}</pre>
 * What is read back is hostile input: bounded in length, typed field by field, and verified before any of
 * it is used.
 */
final class SignedVerdicts {

	/** Longer than any value this starter writes (16 filters of 64 characters and a key). */
	static final int MAX_LENGTH = 4096;

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private SignedVerdicts() {
	}

	/** The stored form of a verdict, signed with the current key. */
	static String write(CachedVerdict verdict, VerdictSigningKeys keys) {
		ObjectNode json = MAPPER.createObjectNode();
		json.put("kid", keys.currentKeyId());
		json.put("sig", keys.sign(signed(keys.currentKeyId(), verdict)));
		json.put("key", verdict.key());
		json.put("verdict", verdict.verdict().name());
		ArrayNode filters = json.putArray("filters");
		for (MatchedFilter filter : verdict.matchedFilters()) {
			filters.addObject().put("name", filter.name()).put("kind", filter.kind().name());
		}
		json.put("expiresAt", verdict.expiresAt());
		return MAPPER.writeValueAsString(json);
	}

	/**
	 * Reads a stored value back.
	 * @param stored what the cache held
	 * @param keys the keys that may have signed it
	 * @return what it is, with the verdict when it is signed with the current key
	 */
	static Read read(Object stored, VerdictSigningKeys keys) {
		if (!(stored instanceof String text) || text.length() > MAX_LENGTH) {
			return Read.MALFORMED;
		}
		CachedVerdict verdict;
		String keyId;
		String signature;
		try {
			JsonNode json = MAPPER.readTree(text);
			keyId = string(json, "kid");
			signature = string(json, "sig");
			verdict = verdict(json);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return Read.MALFORMED;
		}
		if (keyId == null || signature == null || verdict == null) {
			return Read.MALFORMED;
		}
		Signature checked = keys.verify(keyId, signed(keyId, verdict), signature);
		return switch (checked) {
			case VALID -> new Read(Outcome.SIGNED, verdict);
			case PREVIOUS_KEY -> Read.PREVIOUS_KEY;
			case INVALID, UNKNOWN_KEY -> Read.FORGED;
		};
	}

	private static @Nullable CachedVerdict verdict(JsonNode json) {
		String key = string(json, "key");
		String verdict = string(json, "verdict");
		JsonNode expiresAt = json.get("expiresAt");
		JsonNode filters = json.get("filters");
		if (key == null || verdict == null || expiresAt == null || !expiresAt.isIntegralNumber()
				|| !expiresAt.canConvertToLong() || filters == null || !filters.isArray()) {
			return null;
		}
		List<MatchedFilter> matched = new ArrayList<>();
		for (JsonNode filter : filters) {
			String name = string(filter, "name");
			String kind = string(filter, "kind");
			if (name == null || kind == null) {
				return null;
			}
			matched.add(new MatchedFilter(name, FilterKind.valueOf(kind)));
		}
		return new CachedVerdict(key, Verdict.valueOf(verdict), matched, expiresAt.longValue());
	}

	private static @Nullable String string(JsonNode json, String field) {
		JsonNode value = json.get(field);
		return (value != null && value.isString()) ? value.stringValue() : null;
	}

	/**
	 * What the signature covers: the key id, the stored key, and every field of the verdict, one per line.
	 * Built from the fields rather than taken from the JSON, so that no formatting of the JSON matters;
	 * none of the fields can hold a line break that is not refused on use (filter names are checked).
	 */
	private static String signed(String keyId, CachedVerdict verdict) {
		StringBuilder signed = new StringBuilder("modelarmor-verdict-v2\n").append(keyId)
			.append('\n')
			.append(verdict.key())
			.append('\n')
			.append(verdict.verdict().name())
			.append('\n')
			.append(verdict.expiresAt());
		for (MatchedFilter filter : verdict.matchedFilters()) {
			signed.append('\n').append(filter.kind().name()).append(' ').append(filter.name().length()).append(' ')
				.append(filter.name());
		}
		return signed.toString();
	}

	/** What a value read back is. */
	enum Outcome {

		/** Signed with the current key: the verdict may be used, when it is usable for the key. */
		SIGNED,

		/** Signed with a previous key: a miss. */
		PREVIOUS_KEY,

		/** A signature that does not verify, or an unknown key: a possible forgery. */
		FORGED,

		/** Not a value this starter writes. */
		MALFORMED

	}

	/**
	 * A value read back.
	 * @param outcome what it is
	 * @param verdict the verdict, when {@link Outcome#SIGNED}
	 */
	record Read(Outcome outcome, @Nullable CachedVerdict verdict) {

		static final Read PREVIOUS_KEY = new Read(Outcome.PREVIOUS_KEY, null);

		static final Read FORGED = new Read(Outcome.FORGED, null);

		static final Read MALFORMED = new Read(Outcome.MALFORMED, null);

	}

}
