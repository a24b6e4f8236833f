package dev.modelarmor.samples.chat;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /chat}: {@code {"message": "..."}} → {@code 200 {"reply": "..."}}. A blocked prompt or
 * answer is rendered by the starter as {@code 400 application/problem+json} naming the phase and the
 * filters; this controller has no screening code of its own.
 */
@RestController
public class ChatController {

	private final ChatService chat;

	ChatController(ChatService chat) {
		this.chat = chat;
	}

	/**
	 * Answers one message.
	 * @param request the message
	 * @return the reply
	 */
	@PostMapping("/chat")
	public ChatReply chat(@RequestBody ChatRequest request) {
		String message = request.message();
		if (message == null || message.isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "message must not be blank");
		}
		return new ChatReply(this.chat.reply(message));
	}

}
