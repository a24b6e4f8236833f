package dev.modelarmor.screening.cache;

import java.util.Locale;

/**
 * Watches the lookups of a {@link VerdictCache}, for metrics. The starter provides a Micrometer
 * implementation when Micrometer is present.
 */
@FunctionalInterface
public interface VerdictCacheObserver {

	/** Records nothing. */
	VerdictCacheObserver NONE = (operation, lookup) -> {
	};

	/**
	 * A verdict was looked up.
	 * @param operation the screening it was looked up for: {@code sanitize_user_prompt} or
	 * {@code sanitize_model_response}
	 * @param lookup what the lookup found
	 */
	void lookedUp(String operation, Lookup lookup);

	/**
	 * The cache started or stopped being skipped after failures in a row.
	 * @param skipped whether it is skipped now
	 */
	default void skipping(boolean skipped) {
	}

	/**
	 * What a lookup found. Only a {@link #HIT} spares a Model Armor call; every other result screens.
	 */
	enum Lookup {

		/** A usable verdict: no Model Armor call. */
		HIT,

		/** Nothing stored, or what was stored has expired. */
		MISS,

		/**
		 * Something was stored under the key that is not a usable verdict for it (another type, another
		 * key, an unknown verdict or filter, an expiry beyond the time to live): ignored, as a miss.
		 */
		INVALID,

		/**
		 * A value whose signature does not verify, or signed with a key that is not known: a possible
		 * forgery, ignored as a miss.
		 */
		FORGED,

		/** The cache failed or did not answer within its timeout (e.g. Redis unreachable): a miss. */
		ERROR,

		/** The cache is skipped after failures in a row, not asked: a miss. */
		SKIPPED;

		/**
		 * The value of the {@code result} tag.
		 * @return the lower-case name, e.g. {@code hit}
		 */
		public String tag() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
