package dev.modelarmor.samples.langchain4j;

import java.io.IOException;
import java.util.List;

import dev.langchain4j.guardrail.GuardrailException;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The chat endpoints, over the {@link TravelAssistant}. The controller has no screening code: it turns the
 * refusals the guardrails throw into a reply.
 * <ul>
 * <li>{@code POST /chat} {@code {"message": "..."}} → {@code {"reply", "blocked", "phase", "filters"}}.</li>
 * <li>{@code POST /chat/stream} → the answer as server-sent events, one per chunk, sent only once the whole
 * answer passed; a blocked answer is one {@code blocked} event with the refusal.</li>
 * </ul>
 */
@RestController
public class ChatController {

	/** What a refused call answers. */
	public static final String REFUSAL = "Sorry, I cannot help with that request.";

	private final TravelAssistant assistant;

	ChatController(TravelAssistant assistant) {
		this.assistant = assistant;
	}

	/**
	 * Answers one message.
	 * @param request the message
	 * @return the reply, or the refusal
	 */
	@PostMapping("/chat")
	public ChatReply chat(@RequestBody ChatRequest request) {
		try {
			return new ChatReply(this.assistant.chat(message(request)), false, null, List.of());
		}
		catch (GuardrailException | ModelArmorViolationException | ModelArmorNotScreenedException
				| ModelArmorInputRejectedException ex) {
			return refused(ex);
		}
	}

	/**
	 * Streams the answer to one message.
	 * @param request the message
	 * @return the events
	 */
	@PostMapping("/chat/stream")
	public SseEmitter stream(@RequestBody ChatRequest request) {
		SseEmitter emitter = new SseEmitter(30_000L);
		this.assistant.stream(message(request))
			.onPartialResponse((chunk) -> send(emitter, SseEmitter.event().data(chunk)))
			.onCompleteResponse((response) -> emitter.complete())
			.onError((failure) -> {
				ChatReply refused = refused(failure);
				send(emitter, SseEmitter.event().name("blocked").data(refused.reply() + " " + refused.filters()));
				emitter.complete();
			})
			.start();
		return emitter;
	}

	static ChatReply refused(Throwable failure) {
		Throwable cause = failure;
		while (cause != null) {
			if (cause instanceof ModelArmorViolationException violation) {
				return new ChatReply(REFUSAL, true, violation.phase().name(),
						violation.result().matchedFilters().stream().sorted().toList());
			}
			if (cause instanceof ModelArmorNotScreenedException notScreened) {
				return new ChatReply(REFUSAL, true, notScreened.phase().name(), List.of());
			}
			if (cause instanceof ModelArmorInputRejectedException rejected) {
				return new ChatReply(REFUSAL, true, rejected.phase().name(), List.of());
			}
			cause = cause.getCause();
		}
		return new ChatReply(REFUSAL, true, null, List.of());
	}

	private static void send(SseEmitter emitter, SseEmitter.SseEventBuilder event) {
		try {
			emitter.send(event);
		}
		catch (IOException ex) {
			emitter.completeWithError(ex);
		}
	}

	private static String message(ChatRequest request) {
		@Nullable String message = request.message();
		if (message == null || message.isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "message must not be blank");
		}
		return message;
	}

}
