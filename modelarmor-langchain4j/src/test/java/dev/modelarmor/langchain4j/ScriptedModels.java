package dev.modelarmor.langchain4j;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

/**
 * Chat models that answer from a script and record every request they get: what "reaches the model" means in the
 * tests.
 */
final class ScriptedModels {

	private ScriptedModels() {
	}

	static AiMessage text(String text) {
		return AiMessage.from(text);
	}

	static AiMessage toolCall(String id, String tool, String arguments) {
		return AiMessage.from(ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build());
	}

	/** A {@link ChatModel} answering from a script; once it runs out it repeats the last answer. */
	static final class Chat implements ChatModel {

		final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

		private final Deque<AiMessage> script = new ArrayDeque<>();

		Chat(AiMessage... answers) {
			this.script.addAll(List.of(answers));
		}

		@Override
		public ChatResponse doChat(ChatRequest request) {
			this.requests.add(request);
			AiMessage answer = (this.script.size() > 1) ? this.script.poll() : this.script.peek();
			return ChatResponse.builder().aiMessage(answer).build();
		}

	}

	/** A {@link StreamingChatModel} streaming each scripted answer in the chunks given. */
	static final class Streaming implements StreamingChatModel {

		final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

		private final Deque<List<String>> script = new ArrayDeque<>();

		Streaming(List<String>... answers) {
			this.script.addAll(List.of(answers));
		}

		@Override
		public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
			this.requests.add(request);
			List<String> chunks = (this.script.size() > 1) ? this.script.poll() : this.script.peek();
			new Thread(() -> {
				// as LangChain4j's providers do: what a handler throws goes to its onError
				try {
					chunks.forEach(handler::onPartialResponse);
					handler.onCompleteResponse(ChatResponse.builder().aiMessage(AiMessage.from(String.join("", chunks))).build());
				}
				catch (RuntimeException ex) {
					handler.onError(ex);
				}
			}, "scripted-stream").start();
		}

	}

}
