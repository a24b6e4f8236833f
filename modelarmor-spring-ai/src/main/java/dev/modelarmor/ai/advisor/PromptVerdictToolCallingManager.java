package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.Objects;

import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A {@link ToolCallingManager} that runs no tool before the prompt of its model call has passed Model
 * Armor. With {@code modelarmor.spring-ai.advisor.parallel-prompt-screening=true} the model starts while
 * the prompt is being screened, and a tool can act on the world (send mail, run SQL): so the tool calls
 * the model asks for wait here for the prompt's verdict, and when the prompt is blocked none runs and the
 * model call fails (the advisor answers with its refusal instead). Calls whose prompt was screened before
 * the model ran go straight through.
 *
 * <p>Auto-configured around the application's {@code ToolCallingManager} bean; a chat model built by hand
 * with its own manager needs that manager wrapped, or parallel screening of its prompts would let its
 * tools run before the verdict.
 */
public final class PromptVerdictToolCallingManager implements ToolCallingManager {

	private final ToolCallingManager delegate;

	/**
	 * Wraps a tool calling manager.
	 * @param delegate the manager that runs the tools
	 */
	public PromptVerdictToolCallingManager(ToolCallingManager delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
	}

	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		return this.delegate.resolveToolDefinitions(chatOptions);
	}

	/**
	 * Runs the tool calls once the prompt has passed.
	 * @throws PromptNotPassedException when the prompt did not pass: no tool has run
	 */
	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		PromptVerdict verdict = PromptVerdict.of(prompt);
		if (verdict != null && !verdict.await()) {
			throw new PromptNotPassedException();
		}
		return this.delegate.executeToolCalls(prompt, chatResponse);
	}

	/**
	 * The prompt of a model call did not pass Model Armor, so its tool calls were not run. The advisor that
	 * screened the prompt answers the call with its refusal; this exception only stops the model call.
	 */
	public static final class PromptNotPassedException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		PromptNotPassedException() {
			super("The prompt did not pass Model Armor; its tool calls were not run");
		}

	}

}
