package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * Reading and rewriting the generations of a {@link ChatClientResponse}: the advisor's strategies and
 * {@link dev.modelarmor.screening.internal.stream.StreamSegments} all screen generation text and put de-identified text back, and this is the one
 * place that knows where a response keeps it.
 */
final class ChatResponses {

	private ChatResponses() {
	}

	/** The generations of a response, none when it has no chat response. */
	static List<Generation> generations(ChatClientResponse response) {
		ChatResponse chatResponse = response.chatResponse();
		return (chatResponse != null) ? chatResponse.getResults() : List.of();
	}

	/** The text of a generation, empty when it has none. */
	static String text(Generation generation) {
		AssistantMessage output = generation.getOutput();
		String text = (output != null) ? output.getText() : null;
		return (text != null) ? text : "";
	}

	static Generation withText(Generation generation, String text) {
		AssistantMessage output = generation.getOutput();
		AssistantMessage rewritten = (output != null) ? output.mutate().content(text).build() : new AssistantMessage(text);
		return new Generation(rewritten, generation.getMetadata());
	}

	static ChatClientResponse withGenerations(ChatClientResponse response, List<Generation> generations) {
		ChatResponse chatResponse = response.chatResponse();
		ChatResponse.Builder builder = (chatResponse != null) ? ChatResponse.builder().from(chatResponse)
				: ChatResponse.builder();
		return response.mutate().chatResponse(builder.generations(generations).build()).build();
	}

	/**
	 * A buffered stream as one response: generation {@code i} has the text of every chunk's generation
	 * {@code i}, in order, and the rest (metadata, tool calls) of the last chunk that had one; the
	 * response is the last chunk's.
	 */
	static ChatClientResponse joined(List<ChatClientResponse> chunks) {
		List<StringBuilder> texts = new ArrayList<>();
		List<Generation> latest = new ArrayList<>();
		for (ChatClientResponse chunk : chunks) {
			List<Generation> generations = generations(chunk);
			for (int i = 0; i < generations.size(); i++) {
				if (i == texts.size()) {
					texts.add(new StringBuilder());
					latest.add(generations.get(i));
				}
				texts.get(i).append(text(generations.get(i)));
				latest.set(i, generations.get(i));
			}
		}
		List<Generation> joined = new ArrayList<>(texts.size());
		for (int i = 0; i < texts.size(); i++) {
			joined.add(withText(latest.get(i), texts.get(i).toString()));
		}
		return withGenerations(chunks.get(chunks.size() - 1), joined);
	}

}
