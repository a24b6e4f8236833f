package dev.modelarmor.test.sample;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /chat} with the message as plain text: the reply, or the starter's problem detail.
 */
@RestController
public class ChatController {

	private final ChatService chat;

	ChatController(ChatService chat) {
		this.chat = chat;
	}

	/**
	 * Answers one message.
	 * @param message the message
	 * @return the reply
	 */
	@PostMapping("/chat")
	public String chat(@RequestBody String message) {
		return this.chat.reply(message);
	}

}
