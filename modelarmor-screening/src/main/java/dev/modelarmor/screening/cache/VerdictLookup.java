package dev.modelarmor.screening.cache;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache consulted for one whole text, before it is cut into windows: the verdict found, or where
 * to store the one screened. The key and the cache's generation stay inside: a caller can only read what was
 * found and store what it screened. A failure or a refusal of the input is an exception and never reaches the
 * cache.
 */
public final class VerdictLookup {

	/** The operation of a user prompt, as the cache and its metrics name it. */
	public static final String USER_PROMPT = VerdictKey.USER_PROMPT;

	/** The operation of a model response, as the cache and its metrics name it. */
	public static final String MODEL_RESPONSE = VerdictKey.MODEL_RESPONSE;

	private static final VerdictLookup NONE = new VerdictLookup(null, null, null, 0);

	private final @Nullable VerdictCache cache;

	private final @Nullable VerdictKey key;

	private final @Nullable SanitizationResult cached;

	/**
	 * The cache's {@link VerdictCache#generation()} when the text was not found, so that a verdict screened
	 * while a template changed is not stored.
	 */
	private final long generation;

	private VerdictLookup(@Nullable VerdictCache cache, @Nullable VerdictKey key,
			@Nullable SanitizationResult cached, long generation) {
		this.cache = cache;
		this.key = key;
		this.cached = cached;
		this.generation = generation;
	}

	/**
	 * Whether verdicts are looked up at all: there is a cache and the client names the template a verdict
	 * depends on.
	 * @param cache the cache, or {@code null}
	 * @param operations the client
	 * @return whether {@link #of} asks the cache
	 */
	public static boolean consulted(@Nullable VerdictCache cache, ModelArmorOperations operations) {
		return cache != null && operations.templateName() != null;
	}

	/**
	 * Looks a whole text up in the cache; blocks as long as the cache does.
	 * @param cache the cache, or {@code null}
	 * @param operations the client, which names the template
	 * @param windowSize the size of the windows that cut long text, part of its key
	 * @param windowOverlap their overlap, part of its key
	 * @param operation {@link #USER_PROMPT} or {@link #MODEL_RESPONSE}
	 * @param text the text
	 * @param userPrompt the prompt given with a model response, or {@code null}
	 * @return the lookup; one that finds nothing and stores nothing when no cache is consulted
	 */
	public static VerdictLookup of(@Nullable VerdictCache cache, ModelArmorOperations operations, int windowSize,
			int windowOverlap, String operation, String text, @Nullable String userPrompt) {
		String templateName = (cache != null) ? operations.templateName() : null;
		if (cache == null || templateName == null) {
			return NONE;
		}
		VerdictKey key = VerdictKey.of(templateName, operation, windowSize, windowOverlap, text, userPrompt);
		SanitizationResult cached = cache.get(key);
		return new VerdictLookup(cache, key, cached, (cached != null) ? 0 : cache.generation());
	}

	/**
	 * The verdict found.
	 * @return the verdict, or {@code null} when none was found or no cache was consulted
	 */
	public @Nullable SanitizationResult cached() {
		return this.cached;
	}

	/**
	 * Stores the verdict of the text, when there is a cache.
	 * @param result the verdict screened
	 * @return the same verdict
	 */
	public SanitizationResult store(SanitizationResult result) {
		VerdictCache verdicts = this.cache;
		VerdictKey verdictKey = this.key;
		if (verdicts != null && verdictKey != null) {
			verdicts.put(verdictKey, result, this.generation);
		}
		return result;
	}

}
