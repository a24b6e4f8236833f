package dev.modelarmor.autoconfigure;

import java.util.IllformedLocaleException;
import java.util.Locale;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.SanitizeOptions;

/**
 * {@code modelarmor.screening.multi-language-detection.*} validated and turned into the options every
 * screening sends.
 */
final class MultiLanguageOptions {

	private static final String SOURCE_LANGUAGE = "modelarmor.screening.multi-language-detection.source-language";

	private MultiLanguageOptions() {
	}

	/**
	 * The options of the properties.
	 * @param properties the bound properties
	 * @return the options, {@link SanitizeOptions#NONE} when neither is set
	 * @throws ModelArmorConfigurationException naming the source language when it is no BCP 47 language tag
	 */
	static SanitizeOptions of(ModelArmorScreeningProperties.MultiLanguageDetection properties) {
		String language = properties.getSourceLanguage();
		if (language != null) {
			language = language.strip();
			try {
				// strict: a well-formed tag with a language, nothing ignored
				Locale locale = new Locale.Builder().setLanguageTag(language).build();
				if (locale.getLanguage().isEmpty()) {
					throw new IllformedLocaleException("no language");
				}
			}
			catch (IllformedLocaleException ex) {
				throw new ModelArmorConfigurationException(SOURCE_LANGUAGE,
						"the value '" + language + "' is not a BCP 47 language tag",
						"Set it to a code such as 'de' or 'pt-BR', or leave it unset to let Model Armor detect the language");
			}
		}
		return new SanitizeOptions(language, properties.getEnabled());
	}

}
