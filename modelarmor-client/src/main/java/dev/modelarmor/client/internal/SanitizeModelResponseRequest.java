package dev.modelarmor.client.internal;

import java.util.Objects;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.MultiLanguageDetectionMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The body of a {@code sanitizeModelResponse} call. The template's name travels in the URL.
 *
 * <p>{@link #toString()} never shows the prompt.
 *
 * @param modelResponseData the model response to screen
 * @param userPrompt the prompt that produced the response, or {@code null} (then left out)
 * @param multiLanguageDetectionMetadata the call's language options, or {@code null} (then left out)
 */
public record SanitizeModelResponseRequest(DataItem modelResponseData, @Nullable String userPrompt,
		@Nullable MultiLanguageDetectionMetadata multiLanguageDetectionMetadata) {

	public SanitizeModelResponseRequest {
		Objects.requireNonNull(modelResponseData, "modelResponseData must not be null");
	}

	@Override
	public String toString() {
		return "SanitizeModelResponseRequest[modelResponseData=" + this.modelResponseData + ", userPrompt="
				+ ((this.userPrompt != null) ? this.userPrompt.length() + " chars" : "null") + "]";
	}

}
