package dev.modelarmor.samples.reactive;

import reactor.core.publisher.Flux;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /chat?message=...} streams the guarded reply as server-sent events. A refusal before the first
 * event is a problem detail (400 blocked, 503 not screened), rendered by the starter's WebFlux handler.
 */
@RestController
public class ChatController {

	private final StreamingChatService chat;

	ChatController(StreamingChatService chat) {
		this.chat = chat;
	}

	/**
	 * Streams the reply to a message.
	 * @param message the user's message
	 * @return the reply's parts, as server-sent events
	 */
	@GetMapping(path = "/chat", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	public Flux<String> chat(@RequestParam String message) {
		return this.chat.reply(message);
	}

}
