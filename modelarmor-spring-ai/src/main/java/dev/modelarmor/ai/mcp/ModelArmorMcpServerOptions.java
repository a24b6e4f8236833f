package dev.modelarmor.ai.mcp;

import java.util.Objects;
import java.util.Set;

import dev.modelarmor.screening.MatchAction;

/**
 * How a {@link ModelArmorMcpServerScreener} screens what an application's MCP server serves. Free of MCP types,
 * so that it can be bound from configuration properties.
 *
 * @param onMatch what a match does: block; go on with Sensitive Data Protection's de-identified text (the text
 * parts of a result only: arguments are JSON the tool parses, and structured content is JSON another program
 * parses, so a match there blocks); or log and go on
 * @param excludedTools names of the tools whose calls are not screened
 * @param excludedPrompts names of the prompts whose arguments and results are not screened
 * @param excludedResources URIs (or URI templates, as the server declares them) of the resources whose contents
 * are not screened
 * @param screenToolDefinitions whether a tool's name, description and input schema are screened (once while they
 * do not change) before its first call runs; a tool whose definition is blocked answers every call with an error
 */
public record ModelArmorMcpServerOptions(MatchAction onMatch, Set<String> excludedTools, Set<String> excludedPrompts,
		Set<String> excludedResources, boolean screenToolDefinitions) {

	/** Block, screening every tool, prompt and resource, tool definitions included. */
	public static final ModelArmorMcpServerOptions DEFAULTS = new ModelArmorMcpServerOptions(MatchAction.BLOCK,
			Set.of(), Set.of(), Set.of(), true);

	public ModelArmorMcpServerOptions {
		Objects.requireNonNull(onMatch, "onMatch");
		excludedTools = Set.copyOf(excludedTools);
		excludedPrompts = Set.copyOf(excludedPrompts);
		excludedResources = Set.copyOf(excludedResources);
	}

}
