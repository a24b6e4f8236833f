package dev.modelarmor.samples.springai;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The chat endpoints, on a {@link ChatClient} built from Spring AI's auto-configured
 * {@link ChatClient.Builder}, to which the starter adds the {@link ModelArmorAdvisor}
 * ({@code modelarmor.spring-ai.advisor.enabled=true}). This controller has no screening code of its own;
 * it only reads what the advisor left in the response's context.
 * <ul>
 * <li>{@code POST /chat} {@code {"message": "..."}} → {@code {"reply", "blocked", "phase", "filters"}};
 * a blocked call answers {@code 200} with the advisor's refusal as the reply.</li>
 * <li>{@code POST /chat/stream} → the answer as server-sent events, one per chunk; a blocked answer is
 * the refusal.</li>
 * </ul>
 */
@RestController
public class ChatController {

	private final ChatClient chat;

	ChatController(ChatClient.Builder builder) {
		this.chat = builder.build();
	}

	/**
	 * Answers one message.
	 * @param request the message
	 * @return the reply and whether it was blocked
	 */
	@PostMapping("/chat")
	public ChatReply chat(@RequestBody ChatRequest request) {
		ChatClientResponse response = this.chat.prompt().user(message(request)).call().chatClientResponse();
		Map<String, @Nullable Object> context = response.context();
		boolean blocked = Boolean.TRUE.equals(context.get(ModelArmorAdvisor.BLOCKED));
		Object phase = context.get(ModelArmorAdvisor.PHASE);
		return new ChatReply(text(response.chatResponse()), blocked,
				(blocked && phase != null) ? phase.toString().toUpperCase(Locale.ROOT) : null,
				blocked ? filters(context.get(ModelArmorAdvisor.FILTERS)) : List.of());
	}

	/**
	 * Streams the answer to one message. With the advisor's default stream mode, {@code buffered}, the
	 * whole answer is screened before its first chunk is sent.
	 * @param request the message
	 * @return the answer's chunks
	 */
	@PostMapping(path = "/chat/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	public Flux<String> stream(@RequestBody ChatRequest request) {
		return this.chat.prompt().user(message(request)).stream().content();
	}

	static String message(ChatRequest request) {
		String message = request.message();
		if (message == null || message.isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "message must not be blank");
		}
		return message;
	}

	static String text(@Nullable ChatResponse response) {
		if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
			return "";
		}
		String text = response.getResult().getOutput().getText();
		return (text != null) ? text : "";
	}

	static List<String> filters(@Nullable Object filters) {
		if (!(filters instanceof Collection<?> names)) {
			return List.of();
		}
		return names.stream().map(String::valueOf).sorted().toList();
	}

}
