package dev.modelarmor.ai.tool;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.util.CollectionUtils;

/**
 * A {@link ToolCallingManager} that runs every tool of a prompt as a {@link ModelArmorToolCallback}: the
 * tools given to a {@code ChatClient} ({@code @Tool} methods and {@code ToolCallback}s alike) are in the
 * prompt's options, which this one rewrites before the manager it wraps executes the model's tool calls.
 * Tools resolved by name (tool callback beans) are screened by {@link ModelArmorToolCallbackResolver}.
 * Spring AI's {@code ToolCallingAdvisor} and the chat models that run tools themselves all go through the
 * application's {@code ToolCallingManager}, so wrapping that one bean screens them all. The tools of MCP
 * tool callback providers given to a {@code ChatClient} are in the prompt's options too, and screened
 * the same way (Spring AI's resolver leaves MCP providers out). The same bean gives a chat model the
 * definitions of the tools it offers: they are screened before the model reads them, and a tool whose
 * definition is blocked is withheld.
 */
public final class ModelArmorToolCallingManager implements ToolCallingManager {

	private final ToolCallingManager delegate;

	private final ModelArmorToolScreener screener;

	/**
	 * Wraps a tool calling manager.
	 * @param delegate the manager that runs the tools
	 * @param screener screens each tool's arguments and result
	 */
	public ModelArmorToolCallingManager(ToolCallingManager delegate, ModelArmorToolScreener screener) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.screener = Objects.requireNonNull(screener, "screener");
	}

	/**
	 * The definitions of the tools to offer the model, screened: a chat model asks for them to build its
	 * request, so a tool whose definition is blocked is never offered. They are screened with the template of
	 * the tenant the options' tool context names ({@code modelarmor.tenant}), as the tools' calls and results
	 * are.
	 * @throws RuntimeException the refusal's exception when {@code on-block} is {@code throw} and a
	 * definition is blocked
	 */
	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		Map<String, Object> toolContext = chatOptions.getToolContext();
		return this.screener.screenDefinitions(this.delegate.resolveToolDefinitions(chatOptions),
				(toolContext != null) ? toolContext : Map.of());
	}

	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		return this.delegate.executeToolCalls(screened(prompt), chatResponse);
	}

	private Prompt screened(Prompt prompt) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options)) {
			return prompt;
		}
		List<ToolCallback> tools = options.getToolCallbacks();
		if (CollectionUtils.isEmpty(tools)) {
			return prompt;
		}
		ToolCallingChatOptions screened = options.mutate()
			.toolCallbacks(ModelArmorToolCallback.wrap(tools, this.screener))
			.build();
		return prompt.mutate().chatOptions(screened).build();
	}

}
