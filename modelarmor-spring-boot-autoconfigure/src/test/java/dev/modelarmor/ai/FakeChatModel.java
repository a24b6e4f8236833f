package dev.modelarmor.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A chat model for tests: records every prompt it is given, answers calls with a scripted answer and
 * streams with scripted chunks.
 */
class FakeChatModel implements ChatModel {

	private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

	private volatile String answer = "";

	private volatile List<String> chunks = List.of();

	FakeChatModel answering(String answer) {
		this.answer = answer;
		return this;
	}

	FakeChatModel streaming(String... chunks) {
		this.chunks = List.of(chunks);
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

	private static ChatResponse response(String text) {
		return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
	}

}
