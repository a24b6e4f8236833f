package dev.modelarmor.client.internal;

import org.jspecify.annotations.Nullable;

/**
 * An answer body that can tell, once parsed, that a part it needs is missing.
 */
interface ApiAnswer {

	/**
	 * What is wrong with the answer, for the exception message.
	 * @return e.g. {@code without a sanitizationResult}, or {@code null} when the answer is complete
	 */
	@Nullable String problem();

}
