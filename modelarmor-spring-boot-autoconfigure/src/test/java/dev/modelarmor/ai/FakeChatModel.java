package dev.modelarmor.ai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A chat model for tests: records every prompt it is given, answers calls with a scripted answer and
 * streams with scripted chunks. An answer or a chunk may have several generations, as a model asked for
 * several candidates gives.
 */
class FakeChatModel implements ChatModel {

	/** The model name in every response's metadata. */
	static final String MODEL = "fake-model";

	/** The message property that gives a generation's position among the generations. */
	static final String POSITION = "position";

	/** The finish reason of every generation. */
	static final String FINISH_REASON = "STOP";

	private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

	private volatile List<String> answer = List.of("");

	private volatile List<List<String>> chunks = List.of();

	/**
	 * Answers calls with one generation per text.
	 * @param generations the text of each generation
	 * @return this model
	 */
	FakeChatModel answering(String... generations) {
		this.answer = List.of(generations);
		return this;
	}

	/**
	 * Streams one chunk per text, each with one generation.
	 * @param chunks the text of each chunk
	 * @return this model
	 */
	FakeChatModel streaming(String... chunks) {
		this.chunks = Stream.of(chunks).map(List::of).toList();
		return this;
	}

	/**
	 * Streams chunks of several generations.
	 * @param chunks for each chunk, the text of each of its generations
	 * @return this model
	 */
	FakeChatModel streamingGenerations(List<List<String>> chunks) {
		this.chunks = List.copyOf(chunks);
		return this;
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		this.prompts.add(prompt);
		return response(this.answer);
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		this.prompts.add(prompt);
		return Flux.fromIterable(this.chunks).map(FakeChatModel::response);
	}

	/**
	 * Every prompt the model received, oldest first.
	 * @return the prompts
	 */
	List<Prompt> receivedPrompts() {
		return List.copyOf(this.prompts);
	}

	/**
	 * The text of the last user message of every prompt the model received, oldest first.
	 * @return the user texts
	 */
	List<String> receivedUserTexts() {
		return this.prompts.stream().map((prompt) -> prompt.getUserMessage().getText()).toList();
	}

	/**
	 * A response as a model gives one: its model name, and each generation's position among the
	 * generations (a message property) and finish reason, which screening must keep.
	 */
	private static ChatResponse response(List<String> texts) {
		List<Generation> generations = IntStream.range(0, texts.size())
			.mapToObj((i) -> new Generation(
					AssistantMessage.builder().content(texts.get(i)).properties(Map.of(POSITION, i)).build(),
					ChatGenerationMetadata.builder().finishReason(FINISH_REASON).build()))
			.toList();
		return new ChatResponse(generations, ChatResponseMetadata.builder().model(MODEL).build());
	}

}
