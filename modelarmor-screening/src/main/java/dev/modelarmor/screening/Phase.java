package dev.modelarmor.screening;

/**
 * Which side of a guarded call was screened: for a {@code @ModelArmorGuarded} method and the Spring AI
 * advisor the prompt and the answer; for Spring AI retrieval and tool calling also the documents, tool
 * calls, tool results and tool definitions that reach the model without being typed by the user.
 */
public enum Phase {

	/** The prompt, before the method ran. */
	PROMPT,

	/** The model's answer, after the method ran. */
	RESPONSE,

	/**
	 * A document that a Spring AI retrieval advisor adds to the prompt, screened as content going to the
	 * model before the model sees it.
	 */
	DOCUMENT,

	/** The arguments of a tool call that the model asked for, screened as model output before the tool runs. */
	TOOL_CALL,

	/** What a tool returned, screened as content going to the model before the model reads it. */
	TOOL_RESULT,

	/**
	 * A tool's name, description and parameter descriptions, screened as content going to the model before
	 * the tool is offered to it.
	 */
	TOOL_DEFINITION;

	/**
	 * Whether text of this phase is what a model wrote, screened with {@code sanitizeModelResponse}; the
	 * rest goes to a model and is screened with {@code sanitizeUserPrompt}, where the prompt-injection
	 * filter runs.
	 * @return whether it is model output
	 */
	public boolean isModelOutput() {
		return this == RESPONSE || this == TOOL_CALL;
	}

}
