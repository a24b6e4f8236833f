package dev.modelarmor.client.internal;

import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;

/**
 * The body of the answer to {@code sanitizeUserPrompt} and {@code sanitizeModelResponse}: both
 * have this shape.
 *
 * @param sanitizationResult the result, or {@code null} when the service sent none
 */
public record SanitizeResponse(@Nullable SanitizationResult sanitizationResult) implements ApiAnswer {

	@Override
	public @Nullable String problem() {
		return (this.sanitizationResult == null) ? "without a sanitizationResult" : null;
	}

}
