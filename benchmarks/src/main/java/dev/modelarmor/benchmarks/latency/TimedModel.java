package dev.modelarmor.benchmarks.latency;

import java.time.Duration;
import java.util.List;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A model with its own latency and token rate: a call answers after {@code latency}; a stream sends its
 * first token after {@code latency} and the others at {@code tokensPerSecond}. Its options are
 * {@link ToolCallingChatOptions}, as those of every Spring AI model with tools are.
 */
final class TimedModel implements ChatModel {

	private static final String[] WORDS = { "The ", "train ", "to ", "Lyon ", "leaves ", "from ", "Gare ", "de ",
			"Lyon ", "every ", "hour, ", "and ", "the ", "trip ", "takes ", "two ", "hours.\n" };

	/** Tokens of a call's answer. */
	static final int CALL_TOKENS = 60;

	private final Duration latency;

	private final Duration pace;

	private final int streamTokens;

	TimedModel(Duration latency, int tokensPerSecond, int streamTokens) {
		this.latency = latency;
		this.pace = Duration.ofNanos(1_000_000_000L / tokensPerSecond);
		this.streamTokens = streamTokens;
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		try {
			Thread.sleep(this.latency.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		StringBuilder answer = new StringBuilder();
		for (int i = 0; i < CALL_TOKENS; i++) {
			answer.append(WORDS[i % WORDS.length]);
		}
		return new ChatResponse(List.of(new Generation(new AssistantMessage(answer.toString()))));
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		Flux<Integer> rest = Flux.range(1, this.streamTokens - 1).delayElements(this.pace);
		return Flux.just(0)
			.delayElements(this.latency)
			.concatWith(rest)
			.map((i) -> new ChatResponse(List.of(new Generation(new AssistantMessage(WORDS[i % WORDS.length])))));
	}

}
