package dev.modelarmor.client;

import org.jspecify.annotations.Nullable;

/**
 * Options of one sanitize call: multi-language detection, for templates that screen more than English.
 *
 * @param sourceLanguage the language of the content as a BCP 47 code such as {@code de}, or {@code null}
 * to let Model Armor detect it
 * @param enableMultiLanguageDetection whether to screen in the content's language; {@code null} for the
 * template's setting
 */
public record SanitizeOptions(@Nullable String sourceLanguage, @Nullable Boolean enableMultiLanguageDetection) {

	/** No options: the template's settings apply. */
	public static final SanitizeOptions NONE = new SanitizeOptions(null, null);

	/**
	 * Options that turn on multi-language detection.
	 * @return the options
	 */
	public static SanitizeOptions multiLanguageDetection() {
		return new SanitizeOptions(null, true);
	}

	/**
	 * These options with a source language.
	 * @param language a BCP 47 code such as {@code de}
	 * @return the options
	 */
	public SanitizeOptions withSourceLanguage(String language) {
		return new SanitizeOptions(language, this.enableMultiLanguageDetection);
	}

	@Nullable MultiLanguageDetectionMetadata toMetadata() {
		return (this.sourceLanguage == null && this.enableMultiLanguageDetection == null) ? null
				: new MultiLanguageDetectionMetadata(this.sourceLanguage, this.enableMultiLanguageDetection);
	}

}
