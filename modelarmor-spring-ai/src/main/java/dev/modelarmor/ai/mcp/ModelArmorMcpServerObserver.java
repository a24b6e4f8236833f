package dev.modelarmor.ai.mcp;

/**
 * Watches what an MCP server's screening decided, per tool, prompt or resource, for metrics. The starter records
 * a Micrometer counter ({@code modelarmor.mcp.server.screenings}) with it when Micrometer is present.
 */
@FunctionalInterface
public interface ModelArmorMcpServerObserver {

	/** Records nothing. */
	ModelArmorMcpServerObserver NONE = (part, name, outcome) -> {
	};

	/**
	 * One part of an MCP request or its result was screened.
	 * @param part what was screened
	 * @param name the tool's or prompt's name, or the resource's URI (or URI template) as the server declares
	 * it: never what a client sent
	 * @param outcome what became of it
	 */
	void screened(Part part, String name, Outcome outcome);

	/**
	 * What was screened.
	 */
	enum Part {

		/** The arguments of a {@code tools/call}, before the tool runs. */
		TOOL_ARGUMENTS,

		/** The result of a {@code tools/call}, before it leaves. */
		TOOL_RESULT,

		/** A tool's name, description and input schema, before its first call. */
		TOOL_DEFINITION,

		/** The arguments of a {@code prompts/get}, before the prompt runs. */
		PROMPT_ARGUMENTS,

		/** The result of a {@code prompts/get}. */
		PROMPT,

		/** The contents of a {@code resources/read}. */
		RESOURCE;

		/**
		 * The part in metric tags.
		 * @return e.g. {@code tool_arguments}
		 */
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/**
	 * What became of a screened part.
	 */
	enum Outcome {

		/** It passed, unchanged (a match only logged included). */
		PASSED,

		/** It went on with Sensitive Data Protection's de-identified text. */
		DEIDENTIFIED,

		/** It was refused: a match that blocks, screening that could not complete, input Model Armor refused. */
		REFUSED;

		/**
		 * The outcome in metric tags.
		 * @return e.g. {@code refused}
		 */
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

}
