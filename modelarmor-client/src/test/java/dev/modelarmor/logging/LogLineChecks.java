package dev.modelarmor.logging;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.modelarmor.logging.SuiteLogCapture.CapturedLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every module's log hygiene check asks of the lines its run captured: the starter's line shape, the
 * retries at DEBUG, and no line carrying a prompt, an answer or a credential.
 */
public final class LogLineChecks {

	/** A retry line: {@code attempt=1 failure="HTTP 503" wait=PT1.2S}. */
	public static final Pattern RETRYING = Pattern.compile("attempt=\\d+ failure=\"[^\"]*\" wait=");

	/**
	 * The shape of every line of the starter: a fixed sentence, a colon, then space-separated
	 * {@code key=value} pairs whose value is either free of spaces and quotes, or quoted.
	 */
	public static final Pattern KEY_VALUE_LINE = Pattern
		.compile("^Model Armor [^:\"]+:( [a-zA-Z_]+=(\"[^\"]*\"|[^\\s\"]+))+$");

	private LogLineChecks() {
	}

	/**
	 * Asserts that no line holds any of the markers, matched case-insensitively.
	 * @param lines the captured lines
	 * @param markers text no line may contain
	 */
	public static void assertNoLineCarries(List<CapturedLine> lines, List<String> markers) {
		for (CapturedLine line : lines) {
			String text = line.text().toLowerCase(Locale.ROOT);
			for (String marker : markers) {
				assertThat(containsMarker(text, marker.toLowerCase(Locale.ROOT)))
					.as("%s%ncontains the sensitive marker '%s'", line, marker)
					.isFalse();
			}
		}
	}

	/**
	 * Asserts that the starter's lines among these are {@code key=value} shaped and none is a retry's.
	 * @param lines the captured lines
	 * @return the starter's lines, for further checks
	 */
	public static List<CapturedLine> assertStarterLinesKeyValueShaped(List<CapturedLine> lines) {
		assertThat(lines).filteredOn((line) -> RETRYING.matcher(line.text()).find()).as("retry lines at INFO or above")
			.isEmpty();
		List<CapturedLine> starterLines = lines.stream().filter((line) -> line.logger().startsWith("dev.modelarmor."))
			.toList();
		assertThat(starterLines).isNotEmpty().allSatisfy((line) -> assertThat(line.text()).as(line.toString())
			.matches(KEY_VALUE_LINE));
		assertThat(starterLines).filteredOn((line) -> line.logger().startsWith("dev.modelarmor.retry."))
			.as("the retries log at DEBUG")
			.isEmpty();
		return starterLines;
	}

	/**
	 * Whether a log line holds a marker. A marker of digits only (a card number's first group) counts only
	 * where no letter or digit touches it, so that a random port or a random hex call id that happens to
	 * contain it is not a leak.
	 * @param text the line, lower case
	 * @param marker the marker, lower case
	 * @return whether the line holds the marker
	 */
	public static boolean containsMarker(String text, String marker) {
		if (!marker.chars().allMatch(Character::isDigit)) {
			return text.contains(marker);
		}
		return Pattern.compile("(?<![\\p{Alnum}])" + Pattern.quote(marker) + "(?![\\p{Alnum}])").matcher(text).find();
	}

}
