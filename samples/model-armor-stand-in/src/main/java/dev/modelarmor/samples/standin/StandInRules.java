package dev.modelarmor.samples.standin;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simple rules of the local Model Armor stand-in. They only imitate the shape of Model Armor's
 * answers; the real filters are far more capable.
 * <ul>
 * <li><b>{@code pi_and_jailbreak}</b> matches (confidence {@code HIGH}) when the text contains, in any
 * case, one of: {@code ignore previous instructions}, {@code ignore all previous instructions},
 * {@code developer mode}, {@code jailbreak}.</li>
 * <li><b>{@code sdp}</b> matches when the text contains a card number (13 to 16 digits, single spaces or
 * dashes allowed between them; no Luhn check) or an e-mail address; the de-identified text replaces
 * them with {@code [CREDIT_CARD_NUMBER]} and {@code [EMAIL_ADDRESS]}.</li>
 * <li><b>{@code malicious_uris}</b> matches every occurrence of a listed URL (property
 * {@code stand-in.malicious-urls}), compared exactly.</li>
 * </ul>
 */
public final class StandInRules {

	/** The phrases that the jailbreak rule looks for, in lower case. */
	public static final List<String> JAILBREAK_PHRASES = List.of("ignore previous instructions",
			"ignore all previous instructions", "developer mode", "jailbreak");

	private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");

	private static final Pattern CARD_NUMBER = Pattern.compile("(?<![0-9])(?:[0-9][ -]?){12,15}[0-9](?![0-9])");

	private final List<String> maliciousUrls;

	/**
	 * Creates the rules.
	 * @param maliciousUrls the URLs that the {@code malicious_uris} rule matches
	 */
	public StandInRules(List<String> maliciousUrls) {
		this.maliciousUrls = maliciousUrls.stream().filter((url) -> !url.isBlank()).toList();
	}

	/**
	 * Applies every rule to a text.
	 * @param text the screened text
	 * @return what was found
	 */
	public StandInFindings inspect(String text) {
		String lower = text.toLowerCase(Locale.ROOT);
		boolean jailbreak = JAILBREAK_PHRASES.stream().anyMatch(lower::contains);
		Set<String> infoTypes = new LinkedHashSet<>();
		String deidentified = replace(EMAIL, text, "EMAIL_ADDRESS", infoTypes);
		deidentified = replace(CARD_NUMBER, deidentified, "CREDIT_CARD_NUMBER", infoTypes);
		return new StandInFindings(jailbreak, infoTypes.isEmpty() ? null : deidentified, List.copyOf(infoTypes),
				maliciousUris(text));
	}

	private static String replace(Pattern pattern, String text, String infoType, Set<String> found) {
		Matcher matcher = pattern.matcher(text);
		if (!matcher.find()) {
			return text;
		}
		found.add(infoType);
		return matcher.replaceAll(Matcher.quoteReplacement("[" + infoType + "]"));
	}

	private List<StandInFindings.UriMatch> maliciousUris(String text) {
		List<StandInFindings.UriMatch> matches = new ArrayList<>();
		for (String url : this.maliciousUrls) {
			for (int at = text.indexOf(url); at >= 0; at = text.indexOf(url, at + url.length())) {
				matches.add(new StandInFindings.UriMatch(url, at, at + url.length()));
			}
		}
		return matches;
	}

}
