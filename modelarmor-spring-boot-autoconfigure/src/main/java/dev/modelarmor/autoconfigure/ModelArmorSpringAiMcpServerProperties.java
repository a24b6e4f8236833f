package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerOptions;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the screening of the MCP server an application serves with Spring AI's MCP server
 * starter ({@code modelarmor.spring-ai.mcp-server.*}). Their defaults are those of
 * {@link ModelArmorMcpServerOptions#DEFAULTS}.
 */
@ConfigurationProperties("modelarmor.spring-ai.mcp-server")
public class ModelArmorSpringAiMcpServerProperties {

	/**
	 * Whether to screen the tools, prompts and resources that Spring AI's MCP server serves: the arguments of
	 * every tools/call before the tool runs and its result before it leaves, the results of prompts/get and
	 * resources/read. Whether a call that cannot be screened is refused comes from
	 * modelarmor.screening.fail-open.
	 */
	private boolean enabled = true;

	/**
	 * Template the MCP server's calls are screened with. When unset or empty: the tenant's template
	 * (modelarmor.tenants.*), else modelarmor.template-id.
	 */
	private @Nullable String template;

	/**
	 * What a match does: block, deidentify (the text parts of a result leave with Sensitive Data Protection's
	 * de-identified text when SDP alone matched; arguments and structured content block) or log-only.
	 */
	private MatchAction onMatch = ModelArmorMcpServerOptions.DEFAULTS.onMatch();

	/**
	 * Names of tools whose calls are not screened.
	 */
	private List<String> excludedTools = new ArrayList<>();

	/**
	 * Names of prompts whose arguments and results are not screened.
	 */
	private List<String> excludedPrompts = new ArrayList<>();

	/**
	 * URIs, or URI templates as the server declares them, of resources whose contents are not screened.
	 */
	private List<String> excludedResources = new ArrayList<>();

	/**
	 * Whether a tool's name, description and input schema are screened (once while they do not change) before
	 * its first call runs; a tool whose definition is blocked answers every call with an error.
	 */
	private boolean screenToolDefinitions = ModelArmorMcpServerOptions.DEFAULTS.screenToolDefinitions();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getTemplate() {
		return this.template;
	}

	public void setTemplate(@Nullable String template) {
		this.template = template;
	}

	public MatchAction getOnMatch() {
		return this.onMatch;
	}

	public void setOnMatch(MatchAction onMatch) {
		this.onMatch = onMatch;
	}

	public List<String> getExcludedTools() {
		return this.excludedTools;
	}

	public void setExcludedTools(List<String> excludedTools) {
		this.excludedTools = excludedTools;
	}

	public List<String> getExcludedPrompts() {
		return this.excludedPrompts;
	}

	public void setExcludedPrompts(List<String> excludedPrompts) {
		this.excludedPrompts = excludedPrompts;
	}

	public List<String> getExcludedResources() {
		return this.excludedResources;
	}

	public void setExcludedResources(List<String> excludedResources) {
		this.excludedResources = excludedResources;
	}

	public boolean isScreenToolDefinitions() {
		return this.screenToolDefinitions;
	}

	public void setScreenToolDefinitions(boolean screenToolDefinitions) {
		this.screenToolDefinitions = screenToolDefinitions;
	}

}
