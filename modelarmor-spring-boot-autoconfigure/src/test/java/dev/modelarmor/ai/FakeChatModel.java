package dev.modelarmor.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
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
	 * The text of the last user message of every prompt the model received, oldest first.
	 * @return the user texts
	 */
	List<String> receivedUserTexts() {
		return this.prompts.stream().map((prompt) -> prompt.getUserMessage().getText()).toList();
	}

	private static ChatResponse response(List<String> texts) {
		return new ChatResponse(texts.stream().map((text) -> new Generation(new AssistantMessage(text))).toList());
	}

}
