package dev.modelarmor.screening;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache consulted for one whole text by {@link WindowedScreening}: the verdict found, or where
 * to store the one screened. A failure or a refusal of the input is an exception and never reaches the cache.
 *
 * @param cache the cache, or {@code null} when none is consulted
 * @param key the text's key, or {@code null} when no cache is consulted
 * @param cached the verdict found, or {@code null}
 * @param generation the cache's {@link VerdictCache#generation()} when the text was not found, so that a
 * verdict screened while a template changed is not stored
 */
record VerdictLookup(@Nullable VerdictCache cache, @Nullable VerdictKey key, @Nullable SanitizationResult cached,
		long generation) {

	private static final VerdictLookup NONE = new VerdictLookup(null, null, null, 0);

	/**
	 * Whether verdicts are looked up at all: there is a cache and the client names the template a verdict
	 * depends on.
	 * @param cache the cache, or {@code null}
	 * @param operations the client
	 * @return whether {@link #of} asks the cache
	 */
	static boolean consulted(@Nullable VerdictCache cache, ModelArmorOperations operations) {
		return cache != null && operations.templateName() != null;
	}

	/**
	 * Looks a whole text up in the cache; blocks as long as the cache does.
	 * @param cache the cache, or {@code null}
	 * @param operations the client, which names the template
	 * @param windows how the text is cut, part of its key
	 * @param text the text
	 * @return the lookup; one that finds nothing and stores nothing when no cache is consulted
	 */
	static VerdictLookup of(@Nullable VerdictCache cache, ModelArmorOperations operations, ScreeningWindows windows,
			WindowedText text) {
		String templateName = (cache != null) ? operations.templateName() : null;
		if (cache == null || templateName == null) {
			return NONE;
		}
		VerdictKey key = VerdictKey.of(templateName, text.operation(), windows, text.text(), text.userPrompt());
		SanitizationResult cached = cache.get(key);
		return new VerdictLookup(cache, key, cached, (cached != null) ? 0 : cache.generation());
	}

	/**
	 * Stores the verdict of the text, when there is a cache.
	 * @param result the verdict screened
	 * @return the same verdict
	 */
	SanitizationResult store(SanitizationResult result) {
		VerdictCache verdicts = this.cache;
		VerdictKey verdictKey = this.key;
		if (verdicts != null && verdictKey != null) {
			verdicts.put(verdictKey, result, this.generation);
		}
		return result;
	}

}
