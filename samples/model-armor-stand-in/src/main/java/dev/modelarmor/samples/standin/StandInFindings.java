package dev.modelarmor.samples.standin;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@link StandInRules} found in one text.
 * @param jailbreak whether a jailbreak phrase occurs
 * @param deidentifiedText the text with card numbers and e-mail addresses replaced, or {@code null} when
 * it has none
 * @param infoTypes the Sensitive Data Protection info types found, e.g. {@code CREDIT_CARD_NUMBER}
 * @param maliciousUris every occurrence of a listed malicious URL
 */
public record StandInFindings(boolean jailbreak, @Nullable String deidentifiedText, List<String> infoTypes,
		List<UriMatch> maliciousUris) {

	/**
	 * Copies the lists.
	 */
	public StandInFindings {
		infoTypes = List.copyOf(infoTypes);
		maliciousUris = List.copyOf(maliciousUris);
	}

	/**
	 * Whether sensitive data was found (and de-identified).
	 * @return {@code true} when {@link #deidentifiedText()} is present
	 */
	public boolean sensitiveData() {
		return this.deidentifiedText != null;
	}

	/**
	 * Whether any filter matched.
	 * @return {@code true} for a jailbreak, sensitive data or a malicious URL
	 */
	public boolean matchFound() {
		return this.jailbreak || sensitiveData() || !this.maliciousUris.isEmpty();
	}

	/**
	 * One occurrence of a malicious URL.
	 * @param uri the URL as listed
	 * @param start index of its first character in the text
	 * @param end index after its last character
	 */
	public record UriMatch(String uri, int start, int end) {
	}

}
