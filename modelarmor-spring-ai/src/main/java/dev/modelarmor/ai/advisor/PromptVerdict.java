package dev.modelarmor.ai.advisor;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * The verdict on a prompt that is screened while the model runs, as the tools of that model call wait for
 * it: it rides in the prompt's tool context, where {@link PromptVerdictToolCallingManager} finds it before
 * any tool runs. Decided once; a later decision is ignored, so that a stream cancelled after its prompt
 * passed does not take the pass back, and one cancelled before it never lets a tool run.
 */
final class PromptVerdict {

	/** The tool-context key under which the verdict rides. */
	static final String KEY = "modelarmor.prompt-verdict";

	private final CompletableFuture<Boolean> passed = new CompletableFuture<>();

	/**
	 * Decides the verdict, unless it was decided before.
	 * @param passed whether the prompt passed
	 */
	void decide(boolean passed) {
		this.passed.complete(passed);
	}

	/**
	 * Waits for the verdict. The prompt's screening is bounded by its own retry deadline, so this wait is too.
	 * @return whether the prompt passed
	 */
	boolean await() {
		return this.passed.join();
	}

	/**
	 * The verdict a prompt carries, if any.
	 * @param prompt the prompt of a model call
	 * @return its verdict, or {@code null} when it carries none (its prompt was screened before the model ran)
	 */
	static @Nullable PromptVerdict of(Prompt prompt) {
		if (prompt.getOptions() instanceof ToolCallingChatOptions options && options.getToolContext() != null
				&& options.getToolContext().get(KEY) instanceof PromptVerdict verdict) {
			return verdict;
		}
		return null;
	}

}
