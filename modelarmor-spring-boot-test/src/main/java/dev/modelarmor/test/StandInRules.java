package dev.modelarmor.test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.MaliciousUriFilterResult.MaliciousUriMatchedItem;
import dev.modelarmor.client.RangeInfo;
import dev.modelarmor.client.SanitizationResult;

/**
 * The default rules of the {@link ModelArmorStandIn}, for prompts and responses alike. They only imitate
 * the shape of Model Armor's answers; the real filters are far more capable.
 * <ul>
 * <li><b>{@code pi_and_jailbreak}</b> matches (confidence {@code HIGH}) when the text contains, in any
 * case, one of {@link #JAILBREAK_PHRASES}.</li>
 * <li><b>{@code sdp}</b> matches when the text contains a card number (13 to 16 digits, single spaces or
 * dashes allowed between them; no Luhn check) or an e-mail address; the de-identified text replaces them
 * with {@code [CREDIT_CARD_NUMBER]} and {@code [EMAIL_ADDRESS]}.</li>
 * <li><b>{@code malicious_uris}</b> matches every occurrence of one of {@link #MALICIOUS_URLS}, compared
 * exactly.</li>
 * </ul>
 * Text that none of them matches is clean.
 */
final class StandInRules {

	/** The phrases that the jailbreak rule looks for, in lower case. */
	static final List<String> JAILBREAK_PHRASES = List.of("ignore previous instructions",
			"ignore all previous instructions", "developer mode", "jailbreak");

	/**
	 * The URLs that the malicious URI rule matches: Google Safe Browsing's test malware page (flagged by the
	 * real filter too) and a reserved example domain.
	 */
	static final List<String> MALICIOUS_URLS = List.of("http://testsafebrowsing.appspot.com/s/malware.html",
			"http://malware.example/");

	private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");

	private static final Pattern CARD_NUMBER = Pattern.compile("(?<![0-9])(?:[0-9][ -]?){12,15}[0-9](?![0-9])");

	private StandInRules() {
	}

	/**
	 * Applies every rule to a text.
	 * @param text the screened text
	 * @return the answer to it
	 */
	static SanitizationResult screen(String text) {
		String lower = text.toLowerCase(Locale.ROOT);
		FilterResults filters = FilterResults.noMatch();
		boolean matched = false;
		if (JAILBREAK_PHRASES.stream().anyMatch(lower::contains)) {
			filters.match(FilterResults.PI_AND_JAILBREAK);
			matched = true;
		}
		Set<String> infoTypes = new LinkedHashSet<>();
		String deidentified = replace(EMAIL, text, "EMAIL_ADDRESS", infoTypes);
		deidentified = replace(CARD_NUMBER, deidentified, "CREDIT_CARD_NUMBER", infoTypes);
		if (!infoTypes.isEmpty()) {
			filters.deidentify(deidentified, List.copyOf(infoTypes));
			matched = true;
		}
		List<MaliciousUriMatchedItem> uris = maliciousUris(text);
		if (!uris.isEmpty()) {
			filters.maliciousUris(uris);
			matched = true;
		}
		return ModelArmorResults.result(matched ? FilterMatchState.MATCH_FOUND : FilterMatchState.NO_MATCH_FOUND,
				InvocationResult.SUCCESS, filters);
	}

	private static String replace(Pattern pattern, String text, String infoType, Set<String> found) {
		Matcher matcher = pattern.matcher(text);
		if (!matcher.find()) {
			return text;
		}
		found.add(infoType);
		return matcher.replaceAll(Matcher.quoteReplacement("[" + infoType + "]"));
	}

	private static List<MaliciousUriMatchedItem> maliciousUris(String text) {
		List<MaliciousUriMatchedItem> matches = new ArrayList<>();
		for (String url : MALICIOUS_URLS) {
			List<RangeInfo> locations = new ArrayList<>();
			for (int at = text.indexOf(url); at >= 0; at = text.indexOf(url, at + url.length())) {
				locations.add(new RangeInfo(at, at + url.length()));
			}
			if (!locations.isEmpty()) {
				matches.add(new MaliciousUriMatchedItem(url, locations));
			}
		}
		return matches;
	}

}
