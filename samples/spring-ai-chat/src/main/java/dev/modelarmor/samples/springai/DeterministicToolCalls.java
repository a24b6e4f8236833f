package dev.modelarmor.samples.springai;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * How {@link DeterministicChatModel} uses the {@code parcelStatus} tool, as a model would: a question that
 * names a parcel ({@code PX-} and digits), when the tool is offered, is answered with a request to call
 * it; the tool's result is answered with {@value #TOOL_REPLY} and what the tool returned, word for word,
 * so that the reply shows what the model read.
 */
final class DeterministicToolCalls {

	/** The start of the reply to a tool's result. */
	static final String TOOL_REPLY = "The parcel service says: ";

	private static final String TOOL = "parcelStatus";

	private static final Pattern PARCEL = Pattern.compile("\\bPX-\\d+\\b");

	private DeterministicToolCalls() {
	}

	/**
	 * The tool call a prompt asks for, if any.
	 * @param prompt the prompt
	 * @return the assistant message that requests the call, or {@code null}
	 */
	static @Nullable AssistantMessage request(Prompt prompt) {
		if (!(last(prompt) instanceof UserMessage user) || !offersTool(prompt)) {
			return null;
		}
		Matcher parcel = PARCEL.matcher(String.valueOf(user.getText()));
		if (!parcel.find()) {
			return null;
		}
		String arguments = "{\"parcelId\":\"" + parcel.group() + "\"}";
		return AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", TOOL, arguments)))
			.build();
	}

	/**
	 * The reply to a tool's result, if the prompt ends with one.
	 * @param prompt the prompt
	 * @return the reply, or {@code null}
	 */
	static @Nullable String answer(Prompt prompt) {
		if (!(last(prompt) instanceof ToolResponseMessage results)) {
			return null;
		}
		return TOOL_REPLY + results.getResponses()
			.stream()
			.map(ToolResponseMessage.ToolResponse::responseData)
			.collect(Collectors.joining(" "));
	}

	private static boolean offersTool(Prompt prompt) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options) || options.getToolCallbacks() == null) {
			return false;
		}
		return options.getToolCallbacks()
			.stream()
			.map(ToolCallback::getToolDefinition)
			.anyMatch((definition) -> TOOL.equals(definition.name()));
	}

	private static @Nullable Message last(Prompt prompt) {
		List<Message> messages = prompt.getInstructions();
		return messages.isEmpty() ? null : messages.get(messages.size() - 1);
	}

}
