package dev.modelarmor.samples.chat;

import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.samples.standin.DeterministicResponder;
import dev.modelarmor.screening.MatchAction;

import org.springframework.stereotype.Service;

/**
 * The one place that talks to the "model". {@link ModelArmorGuarded} screens the message before the
 * model sees it and the reply before the caller does. With {@link MatchAction#DEIDENTIFY}, a match of
 * Sensitive Data Protection alone goes on with the de-identified text (the message, or the reply); any
 * other match throws {@link dev.modelarmor.screening.ModelArmorViolationException}.
 */
@Service
public class ChatService {

	private final DeterministicResponder model = new DeterministicResponder();

	/**
	 * Replies to a message.
	 * @param message the user's message
	 * @return the model's reply
	 */
	@ModelArmorGuarded(onMatch = MatchAction.DEIDENTIFY)
	public String reply(String message) {
		return this.model.reply(message);
	}

}
