package dev.modelarmor.client.internal;

import java.util.Objects;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.MultiLanguageDetectionMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The body of a {@code sanitizeUserPrompt} call. The template's name travels in the URL.
 *
 * @param userPromptData the prompt to screen
 * @param multiLanguageDetectionMetadata the call's language options, or {@code null} (then left out)
 */
public record SanitizeUserPromptRequest(DataItem userPromptData,
		@Nullable MultiLanguageDetectionMetadata multiLanguageDetectionMetadata) {

	public SanitizeUserPromptRequest {
		Objects.requireNonNull(userPromptData, "userPromptData must not be null");
	}

}
