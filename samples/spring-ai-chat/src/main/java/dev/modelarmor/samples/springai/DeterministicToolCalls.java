package dev.modelarmor.samples.springai;

import java.util.List;
import java.util.Locale;
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
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.util.CollectionUtils;

/**
 * How {@link DeterministicChatModel} uses the {@code parcelStatus} tool (or the carrier's MCP
 * {@code trackParcel}), as a model would: a question that names a parcel ({@code PX-} and digits), when
 * the tool is offered, is answered with a request to call it; a question about the tools at hand with
 * the names of those offered; the tool's result is answered with {@value #TOOL_REPLY} and what the tool returned, word for word,
 * so that the reply shows what the model read.
 */
final class DeterministicToolCalls {

	/** The start of the reply to a tool's result. */
	static final String TOOL_REPLY = "The parcel service says: ";

	/** The start of the reply to a question about the tools at hand. */
	static final String TOOLS_REPLY = "I can use: ";

	private static final String TOOL = "parcelStatus";

	private static final Pattern PARCEL = Pattern.compile("\\bPX-\\d+\\b");

	private DeterministicToolCalls() {
	}

	/**
	 * The tool call a prompt asks for, if any.
	 * @param prompt the prompt
	 * @return the assistant message that requests the call, or {@code null}
	 */
	static @Nullable AssistantMessage request(Prompt prompt, List<String> offered) {
		if (!(last(prompt) instanceof UserMessage user)) {
			return null;
		}
		String tool = offered.stream().filter(DeterministicToolCalls::tracksParcels).findFirst().orElse(null);
		Matcher parcel = PARCEL.matcher(String.valueOf(user.getText()));
		if (tool == null || !parcel.find()) {
			return null;
		}
		String arguments = "{\"parcelId\":\"" + parcel.group() + "\"}";
		return AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", tool, arguments)))
			.build();
	}

	/**
	 * The reply to a question about the tools at hand ({@code "Which tools ..."}), if it is one: the names
	 * of the tools offered, so that the reply shows which ones reached the model.
	 * @param prompt the prompt
	 * @param offered the names of the tools offered with it
	 * @return the reply, or {@code null}
	 */
	static @Nullable String toolsAtHand(Prompt prompt, List<String> offered) {
		if (!(last(prompt) instanceof UserMessage user)
				|| !String.valueOf(user.getText()).toLowerCase(Locale.ROOT).contains("which tools")) {
			return null;
		}
		return offered.isEmpty() ? "I can use no tools." : TOOLS_REPLY + String.join(", ", offered);
	}

	/**
	 * The names of the tools a prompt offers, as a chat model gets their definitions: from the
	 * {@code ToolCallingManager}, which the starter has screen them.
	 * @param prompt the prompt
	 * @param manager the application's tool calling manager
	 * @return the names, in order
	 */
	static List<String> offered(Prompt prompt, ToolCallingManager manager) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options)
				|| CollectionUtils.isEmpty(options.getToolCallbacks())) {
			return List.of();
		}
		return manager.resolveToolDefinitions(options).stream().map(ToolDefinition::name).toList();
	}

	/** The sample's {@code @Tool}, or the carrier's MCP tool (which Spring AI's MCP client may prefix). */
	private static boolean tracksParcels(String tool) {
		return TOOL.equals(tool) || tool.endsWith(CarrierMcpServer.TRACK);
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

	private static @Nullable Message last(Prompt prompt) {
		List<Message> messages = prompt.getInstructions();
		return messages.isEmpty() ? null : messages.get(messages.size() - 1);
	}

}
