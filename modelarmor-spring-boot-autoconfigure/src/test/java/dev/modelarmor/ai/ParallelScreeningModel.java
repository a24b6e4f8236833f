package dev.modelarmor.ai;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A chat model for the parallel prompt screening tests: it answers at once (or streams its chunks at
 * once, or at a pace), tells an event log when it starts and when its stream is cancelled, and, asked to,
 * requests one tool call before answering. Its options are {@link ToolCallingChatOptions}, as every Spring
 * AI model with tools has.
 */
class ParallelScreeningModel implements ChatModel {

	static final List<String> CHUNKS = List.of("PARALLEL-A-1 The ", "train ", "leaves at nine.");

	static final String ANSWER = String.join("", CHUNKS);

	private final Consumer<String> events;

	private final AtomicInteger calls = new AtomicInteger();

	private volatile boolean requestTool;

	private volatile Duration pace = Duration.ZERO;

	private volatile boolean failing;

	ParallelScreeningModel(Consumer<String> events) {
		this.events = events;
	}

	ParallelScreeningModel requestingATool() {
		this.requestTool = true;
		return this;
	}

	ParallelScreeningModel failing() {
		this.failing = true;
		return this;
	}

	ParallelScreeningModel streamingEvery(Duration pace) {
		this.pace = pace;
		return this;
	}

	int calls() {
		return this.calls.get();
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		this.calls.incrementAndGet();
		this.events.accept("model");
		if (this.failing) {
			throw new IllegalStateException("model unavailable");
		}
		List<Message> messages = prompt.getInstructions();
		boolean toolAnswered = messages.get(messages.size() - 1) instanceof ToolResponseMessage;
		if (this.requestTool && !toolAnswered) {
			return new ChatResponse(List.of(new Generation(AssistantMessage.builder()
				.content("")
				.toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "weather", "{\"city\":\"Lyon\"}")))
				.build())));
		}
		return new ChatResponse(List.of(new Generation(new AssistantMessage(ANSWER))));
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		this.calls.incrementAndGet();
		Flux<String> chunks = this.failing ? Flux.error(new IllegalStateException("model unavailable"))
				: Flux.fromIterable(CHUNKS);
		if (!this.pace.isZero()) {
			chunks = chunks.delayElements(this.pace);
		}
		return chunks.map((text) -> new ChatResponse(List.of(new Generation(new AssistantMessage(text)))))
			.doOnSubscribe((subscription) -> this.events.accept("model"))
			.doOnCancel(() -> this.events.accept("model cancelled"));
	}

}
