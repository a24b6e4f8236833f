package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.screening.internal.stream.StreamSegments;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.model.Generation;

/**
 * The chunks of a streamed chat answer as {@link StreamSegments} reads them: each generation's text, the
 * chunk rewritten with de-identified text, and the names and arguments of its tool calls, which are
 * screened before the chunk is emitted (the caller may run them).
 */
final class ChatChunks implements StreamSegments.Chunks<ChatClientResponse> {

	static final ChatChunks INSTANCE = new ChatChunks();

	private ChatChunks() {
	}

	@Override
	public List<String> texts(ChatClientResponse chunk) {
		return ChatResponses.generations(chunk).stream().map(ChatResponses::text).toList();
	}

	@Override
	public ChatClientResponse withTexts(ChatClientResponse chunk, List<@Nullable String> texts) {
		List<Generation> generations = ChatResponses.generations(chunk);
		List<Generation> out = new ArrayList<>(generations);
		for (int g = 0; g < generations.size() && g < texts.size(); g++) {
			String text = texts.get(g);
			if (text != null) {
				out.set(g, ChatResponses.withText(generations.get(g), text));
			}
		}
		return ChatResponses.withGenerations(chunk, out);
	}

	@Override
	public String toolCalls(ChatClientResponse chunk) {
		return toolCallsOf(chunk);
	}

	/**
	 * The names and arguments of every tool call of a chunk, one per line.
	 * @param chunk the chunk
	 * @return the text to screen, empty when the chunk has no tool calls
	 */
	static String toolCallsOf(ChatClientResponse chunk) {
		StringBuilder text = new StringBuilder();
		for (Generation generation : ChatResponses.generations(chunk)) {
			AssistantMessage output = generation.getOutput();
			if (output == null) {
				continue;
			}
			for (ToolCall call : output.getToolCalls()) {
				text.append(call.name()).append('\n').append(call.arguments()).append('\n');
			}
		}
		return text.toString();
	}

}
