package dev.modelarmor.samples.standin;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Stands in for an LLM so that the samples need none; both use it (guarded-chat directly, spring-ai-chat
 * behind a Spring AI {@code ChatModel}). Its rules, first match wins:
 * <ul>
 * <li>a message mentioning {@code support}: a reply with an e-mail address
 * ({@value #SUPPORT_REPLY}), so that the <em>answer</em> is de-identified;</li>
 * <li>a message mentioning {@code link}: a reply with {@value #MALWARE_LINK}, Google Safe Browsing's
 * test malware page (flagged by the stand-in's {@code malicious_uris} rule and by the real filter too), so
 * that the <em>answer</em> is blocked;</li>
 * <li>{@code hello} or {@code hi}: a greeting;</li>
 * <li>anything else: {@code "You said: " + message}.</li>
 * </ul>
 */
public class DeterministicResponder {

	/** The reply to a message about support. */
	public static final String SUPPORT_REPLY = "You can reach our support team at help@example.com.";

	/**
	 * The link that a message asking for a link gets: Google Safe Browsing's test malware page, which the
	 * stand-in's {@code malicious_uris} rule and the real filter both flag.
	 */
	public static final String MALWARE_LINK = "http://testsafebrowsing.appspot.com/s/malware.html";

	/** The reply to a greeting. */
	public static final String GREETING = "Hello! Ask me about support, ask for a link, or say anything.";

	private static final Pattern GREETING_WORDS = Pattern.compile("\\b(hello|hi)\\b", Pattern.CASE_INSENSITIVE);

	/**
	 * Replies to a message.
	 * @param message the (screened) message
	 * @return the reply
	 */
	public String reply(String message) {
		String lower = message.toLowerCase(Locale.ROOT);
		if (lower.contains("support")) {
			return SUPPORT_REPLY;
		}
		if (lower.contains("link")) {
			return "Here is the link you asked for: " + MALWARE_LINK;
		}
		if (GREETING_WORDS.matcher(message).find()) {
			return GREETING;
		}
		return "You said: " + message;
	}

}
