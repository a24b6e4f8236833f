package dev.modelarmor.screening.cache;

import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.WindowSettings;
import dev.modelarmor.screening.cache.CachedVerdict.FilterKind;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache's keys and signed values, for the cache's tests in the screening package, which drive it
 * through the windows as the screening layer does.
 */
public final class VerdictCacheAccess {

	private VerdictCacheAccess() {
	}

	/**
	 * The key of one screening.
	 * @param templateName the template's full resource name
	 * @param operation {@link VerdictLookup#USER_PROMPT} or {@link VerdictLookup#MODEL_RESPONSE}
	 * @param windows how long text is cut
	 * @param text the screened text
	 * @param userPrompt the prompt given with a model response, or {@code null}
	 * @return the key
	 */
	public static Key key(String templateName, String operation, WindowSettings windows, String text,
			@Nullable String userPrompt) {
		VerdictKey key = VerdictKey.of(templateName, operation, windows.size(), windows.overlap(), text, userPrompt);
		return new Key(key.operation(), key.value());
	}

	/**
	 * A verdict as the starter stores it, signed.
	 * @param verdict the verdict
	 * @param keys the signing keys
	 * @return the stored value
	 */
	public static String write(CachedVerdict verdict, VerdictSigningKeys keys) {
		return SignedVerdicts.write(verdict, keys);
	}

	/**
	 * A stored value read back.
	 * @param stored the value
	 * @param keys the signing keys
	 * @return the verdict when the value is signed with the current key, otherwise {@code null}
	 */
	public static @Nullable CachedVerdict readSigned(Object stored, VerdictSigningKeys keys) {
		SignedVerdicts.Read read = SignedVerdicts.read(stored, keys);
		return (read.outcome() == SignedVerdicts.Outcome.SIGNED) ? read.verdict() : null;
	}

	/**
	 * What the cache would keep of a result.
	 * @param key the key
	 * @param result the result
	 * @param expiresAt when the verdict expires
	 * @return the verdict, or {@code null} when the result is not kept
	 */
	public static @Nullable CachedVerdict cachedVerdict(String key, SanitizationResult result, long expiresAt) {
		return CachedVerdict.of(key, result, expiresAt);
	}

	/**
	 * A filter result of a kind, matched, as a verdict read back rebuilds it.
	 * @param kind the kind
	 * @return the filter result
	 */
	public static FilterResult matched(FilterKind kind) {
		return kind.matched();
	}

	/**
	 * The kind of a filter result, as a verdict stores it.
	 * @param result the filter result
	 * @return the kind
	 */
	public static FilterKind kindOf(FilterResult result) {
		return FilterKind.of(result);
	}

	/**
	 * A key as {@link VerdictKey} has it.
	 * @param operation the operation
	 * @param value the key before signing
	 */
	public record Key(String operation, String value) {

		/**
		 * The key the cache stores under.
		 * @param keys the signing keys
		 * @return the stored key
		 */
		public String storedUnder(VerdictSigningKeys keys) {
			return new VerdictKey(this.operation, this.value).storedUnder(keys);
		}

		@Override
		public String toString() {
			return this.value;
		}

	}

}
