package dev.modelarmor.test.sample;

import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.screening.MatchAction;

import org.springframework.stereotype.Service;

/**
 * The "model": echoes the (screened) message; an answer that names a link carries a malicious URL.
 */
@Service
public class ChatService {

	static final String MALWARE_LINK = "http://malware.example/";

	/**
	 * Replies to a message.
	 * @param message the message
	 * @return the reply
	 */
	@ModelArmorGuarded(onMatch = MatchAction.DEIDENTIFY)
	public String reply(String message) {
		return message.contains("link") ? "Here: " + MALWARE_LINK : "You said: " + message;
	}

	/**
	 * Replies with the strict template.
	 * @param message the message
	 * @return the reply
	 */
	@ModelArmorGuarded(template = "strict-template")
	public String strictReply(String message) {
		return "Strictly: " + message;
	}

}
