package dev.modelarmor.autoconfigure;

import java.util.IllformedLocaleException;
import java.util.Locale;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.screening.WindowSettings;

import static dev.modelarmor.autoconfigure.PropertyValues.bytes;
import static dev.modelarmor.autoconfigure.PropertyValues.invalid;

/**
 * Maps {@code modelarmor.screening.*} onto what every screening is made with: the {@link WindowSettings} of
 * long text and the multi-language options each call sends. The ranges are {@link WindowSettings}' own.
 */
final class ScreeningSettingsMapper {

	private static final String WINDOW = "modelarmor.screening.window.";

	private static final String LOG_LINES_PER_SECOND = "modelarmor.screening.log-lines-per-second";

	/** More would be no bound: a busy instance's whole call rate. */
	private static final int MAX_LOG_LINES_PER_SECOND = 10_000;

	private static final String SOURCE_LANGUAGE = "modelarmor.screening.multi-language-detection.source-language";

	private ScreeningSettingsMapper() {
	}

	/**
	 * How text longer than one window is screened.
	 * @param window {@code modelarmor.screening.window.*}
	 * @return the windows
	 * @throws ModelArmorConfigurationException naming the first property the windows refuse
	 */
	static WindowSettings windows(ModelArmorScreeningProperties.Window window) {
		try {
			return new WindowSettings(bytes(window.getSize()), bytes(window.getOverlap()), window.getParallelism(),
					window.getMaxWindows());
		}
		catch (InvalidSettingException ex) {
			// The sizes as they were configured (2KB), not as bytes.
			Object value = switch (ex.setting()) {
				case "size" -> window.getSize();
				case "overlap" -> window.getOverlap();
				default -> ex.value();
			};
			throw invalid(WINDOW + ex.setting(), value, ex.reason());
		}
	}

	/**
	 * The log lines of each outcome written in full each second.
	 * @param properties {@code modelarmor.screening.*}
	 * @return the lines
	 * @throws ModelArmorConfigurationException naming the property when it is out of its range
	 */
	static int logLinesPerSecond(ModelArmorScreeningProperties properties) {
		int lines = properties.getLogLinesPerSecond();
		if (lines < 1 || lines > MAX_LOG_LINES_PER_SECOND) {
			throw invalid(LOG_LINES_PER_SECOND, lines, "it must be from 1 to " + MAX_LOG_LINES_PER_SECOND);
		}
		return lines;
	}

	/**
	 * The multi-language options every screening sends.
	 * @param properties {@code modelarmor.screening.multi-language-detection.*}
	 * @return the options, {@link SanitizeOptions#NONE} when neither is set
	 * @throws ModelArmorConfigurationException naming the source language when it is no BCP 47 language tag
	 */
	static SanitizeOptions sanitizeOptions(ModelArmorScreeningProperties.MultiLanguageDetection properties) {
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
