package dev.modelarmor.client;

import org.jspecify.annotations.Nullable;

/**
 * Multi-language detection for one sanitize request.
 *
 * @param sourceLanguage the language of the content, e.g. {@code de}, or {@code null} to let the
 * service detect it
 * @param enableMultiLanguageDetection whether multi-language detection is enabled for the request, or
 * {@code null} when not given
 */
public record MultiLanguageDetectionMetadata(@Nullable String sourceLanguage,
		@Nullable Boolean enableMultiLanguageDetection) {

}
