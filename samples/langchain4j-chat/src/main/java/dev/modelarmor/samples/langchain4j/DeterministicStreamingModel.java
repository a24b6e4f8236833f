package dev.modelarmor.samples.langchain4j;

import java.util.ArrayList;
import java.util.List;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

/**
 * The {@link DeterministicModel}'s answers, streamed in three chunks, split inside words so that a match spans
 * chunks.
 */
public class DeterministicStreamingModel implements StreamingChatModel {

	private final DeterministicModel model;

	/**
	 * Streams the answers of a model.
	 * @param model answers and records
	 */
	public DeterministicStreamingModel(DeterministicModel model) {
		this.model = model;
	}

	@Override
	public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
		// As LangChain4j's providers do: what the handler throws goes to its onError.
		try {
			ChatResponse response = this.model.doChat(request);
			AiMessage answer = response.aiMessage();
			if (answer.text() != null) {
				chunks(answer.text()).forEach(handler::onPartialResponse);
			}
			handler.onCompleteResponse(response);
		}
		catch (RuntimeException ex) {
			handler.onError(ex);
		}
	}

	static List<String> chunks(String text) {
		List<String> chunks = new ArrayList<>();
		int third = Math.max(1, text.length() / 3);
		for (int start = 0; start < text.length(); start += third) {
			chunks.add(text.substring(start, Math.min(text.length(), start + third)));
		}
		return chunks;
	}

}
