package dev.modelarmor.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A chat model for the tool tests: asked a question, it requests one tool call with scripted arguments;
 * given the tool's result, it answers. It records every tool result it reads, so that a test can tell
 * what reached the model. Given a {@link ToolCallingManager}, it asks it for the definitions of the tools
 * to offer, as Spring AI's chat models do to build their requests, and records their names.
 */
class ToolCallingChatModel implements ChatModel {

	static final String ANSWER = "Here is what the tool found.";

	private final List<String> toolResults = new CopyOnWriteArrayList<>();

	private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

	private final List<List<String>> offered = new CopyOnWriteArrayList<>();

	private final ToolCallingManager manager;

	ToolCallingChatModel() {
		this(null);
	}

	ToolCallingChatModel(ToolCallingManager manager) {
		this.manager = manager;
	}

	private volatile String tool = "weather";

	private volatile String arguments = "{\"city\":\"Lyon\"}";

	/**
	 * Requests this tool call for every question.
	 * @param tool the tool's name
	 * @param arguments the arguments, JSON
	 * @return this model
	 */
	ToolCallingChatModel requesting(String tool, String arguments) {
		this.tool = tool;
		this.arguments = arguments;
		return this;
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		this.prompts.add(prompt);
		if (this.manager != null && prompt.getOptions() instanceof ToolCallingChatOptions options) {
			this.offered.add(this.manager.resolveToolDefinitions(options).stream().map(ToolDefinition::name).toList());
		}
		List<Message> messages = prompt.getInstructions();
		Message last = messages.get(messages.size() - 1);
		if (last instanceof ToolResponseMessage results) {
			results.getResponses().forEach((response) -> this.toolResults.add(response.responseData()));
			return new ChatResponse(List.of(new Generation(new AssistantMessage(ANSWER))));
		}
		AssistantMessage toolCall = AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", this.tool, this.arguments)))
			.build();
		return new ChatResponse(List.of(new Generation(toolCall)));
	}

	/**
	 * The tool results the model read, oldest first.
	 * @return the results
	 */
	List<String> toolResults() {
		return List.copyOf(this.toolResults);
	}

	/**
	 * The names of the tools offered to the model, one list per model call, oldest first.
	 * @return the names
	 */
	List<List<String>> offered() {
		return List.copyOf(this.offered);
	}

	/**
	 * How many times the model was called.
	 * @return the calls
	 */
	int calls() {
		return this.prompts.size();
	}

}
