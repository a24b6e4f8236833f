package dev.modelarmor.client;

import java.util.Objects;

/**
 * The body of a {@code sanitizeUserPrompt} call. The template's name travels in the URL.
 *
 * @param userPromptData the prompt to screen
 */
record SanitizeUserPromptRequest(DataItem userPromptData) {

	SanitizeUserPromptRequest {
		Objects.requireNonNull(userPromptData, "userPromptData must not be null");
	}

}
