package dev.modelarmor.ai.mcp;

import java.util.Objects;
import java.util.function.BiFunction;

import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.ai.tool.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.ai.tool.ModelArmorToolScreener;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Screens what an application's MCP server serves to other agents, by decorating the MCP Java SDK's server
 * specifications (sync, async and stateless, each the same way):
 * <ul>
 * <li>{@code tools/call}: the arguments the calling agent sent, as a prompt ({@link Phase#PROMPT},
 * {@code sanitizeUserPrompt}) before the tool runs; the tool's result (its content parts and structured
 * content), as a response ({@link Phase#RESPONSE}, {@code sanitizeModelResponse}) before it leaves. A refusal is
 * answered as a tool error result ({@code isError: true}) naming the matched filters, never the content; a
 * refused call never runs the tool. With {@link MatchAction#DEIDENTIFY}, text parts of a result in which
 * Sensitive Data Protection alone matched leave de-identified; arguments and structured content block.</li>
 * <li>a tool's definition (name, description, input schema), screened once while it does not change, before
 * its first call: a tool whose definition is blocked answers every call with an error result.</li>
 * <li>{@code prompts/get}: the arguments the calling agent sent (what the prompt interpolates), as a prompt
 * before the prompt runs; its result as a response. {@code resources/read}: its contents as a response. A refusal
 * is a JSON-RPC error naming the filters, never the content; refused arguments never run the prompt.</li>
 * </ul>
 * Each request's tenant comes from the transport (a header the starter's filter read, or what an application's
 * transport context extractor put under {@code modelarmor.tenant}), else from the request's {@code _meta}. Log
 * lines and observations name the tool, prompt or resource as the server declares it, never anything a client
 * sent. Every screening is bounded by the client's retry deadline; one that cannot complete refuses the call
 * unless {@code modelarmor.screening.fail-open} lets it through.
 *
 * <p>With {@code modelarmor.spring-ai.mcp-server.enabled=true} the starter decorates every specification that
 * Spring AI's MCP server auto-configuration serves; decorate one added at run time by hand:
 *
 * <pre class="code">
 * mcpSyncServer.addTool(screener.screened(toolSpecification));
 * </pre>
 *
 * Thread-safe.
 */
public final class ModelArmorMcpServerScreener {

	private final ModelArmorMcpServerOptions options;

	private final McpHandlers handlers;

	/**
	 * Creates a screener with the default template that records no observations.
	 * @param screening screens and decides
	 * @param options what is screened and how a match acts
	 */
	public ModelArmorMcpServerScreener(ModelArmorScreening screening, ModelArmorMcpServerOptions options) {
		this(screening, null, options, ModelArmorMcpServerObserver.NONE, false);
	}

	/**
	 * Creates a screener.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the one the template resolver chooses
	 * (by tenant), else {@code modelarmor.template-id}
	 * @param options what is screened and how a match acts
	 * @param observer told what each screening decided
	 * @param failOpen whether {@code screening} fails open: then a tool definition that passed is screened again
	 * on the next call, since its pass may have been an outage let through
	 */
	public ModelArmorMcpServerScreener(ModelArmorScreening screening, @Nullable String template,
			ModelArmorMcpServerOptions options, ModelArmorMcpServerObserver observer, boolean failOpen) {
		Objects.requireNonNull(screening, "screening");
		this.options = Objects.requireNonNull(options, "options");
		Objects.requireNonNull(observer, "observer");
		McpPartScreening parts = new McpPartScreening(new McpContentScreening(screening, template, options.onMatch()),
				observer);
		ModelArmorToolScreener definitions = options.screenToolDefinitions() ? new ModelArmorToolScreener(screening,
				template, new ModelArmorToolOptions(MatchAction.BLOCK, OnBlockedTool.REFUSE,
						ModelArmorToolOptions.DEFAULT_REFUSAL), failOpen) : null;
		this.handlers = new McpHandlers(parts, options, observer, definitions);
	}

	/**
	 * What this screener screens and how.
	 * @return the options
	 */
	public ModelArmorMcpServerOptions options() {
		return this.options;
	}

	/**
	 * A tool whose calls are screened; a tool that is excluded, or already screened, is returned as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public SyncToolSpecification screened(SyncToolSpecification tool) {
		if (tool.callHandler() instanceof McpHandlers.ScreenedHandler || this.handlers.excludedTool(tool.tool())) {
			return tool;
		}
		return new SyncToolSpecification(tool.tool(), this.handlers.syncTool(tool.tool(), tool.callHandler()));
	}

	/**
	 * A tool whose calls are screened; a tool that is excluded, or already screened, is returned as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public AsyncToolSpecification screened(AsyncToolSpecification tool) {
		if (tool.callHandler() instanceof McpHandlers.ScreenedHandler || this.handlers.excludedTool(tool.tool())) {
			return tool;
		}
		return new AsyncToolSpecification(tool.tool(), this.handlers.asyncTool(tool.tool(), tool.callHandler()));
	}

	/**
	 * A stateless server's tool whose calls are screened; a tool that is excluded, or already screened, is returned
	 * as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.SyncToolSpecification screened(McpStatelessServerFeatures.SyncToolSpecification tool) {
		if (tool.callHandler() instanceof McpHandlers.ScreenedHandler || this.handlers.excludedTool(tool.tool())) {
			return tool;
		}
		return new McpStatelessServerFeatures.SyncToolSpecification(tool.tool(),
				this.handlers.statelessSyncTool(tool.tool(), tool.callHandler()));
	}

	/**
	 * A stateless server's tool whose calls are screened; a tool that is excluded, or already screened, is returned
	 * as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.AsyncToolSpecification screened(
			McpStatelessServerFeatures.AsyncToolSpecification tool) {
		if (tool.callHandler() instanceof McpHandlers.ScreenedHandler || this.handlers.excludedTool(tool.tool())) {
			return tool;
		}
		return new McpStatelessServerFeatures.AsyncToolSpecification(tool.tool(),
				this.handlers.statelessAsyncTool(tool.tool(), tool.callHandler()));
	}

	/**
	 * A prompt whose arguments and results are screened; one that is excluded, or already screened, is returned
	 * as it is.
	 * @param prompt the prompt's specification
	 * @return the screened specification
	 */
	public SyncPromptSpecification screened(SyncPromptSpecification prompt) {
		String name = prompt.prompt().name();
		if (this.handlers.screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpSyncServerExchange, GetPromptRequest, GetPromptResult> handler = prompt.promptHandler();
		return new SyncPromptSpecification(prompt.prompt(),
				(McpHandlers.Screened<McpSyncServerExchange, GetPromptRequest, GetPromptResult>) (exchange, request) -> this.handlers.promptSync(
						name, McpScope.of(exchange.transportContext(), request.meta()), request,
						(passed) -> handler.apply(exchange, passed)));
	}

	/**
	 * A prompt whose arguments and results are screened; one that is excluded, or already screened, is returned
	 * as it is.
	 * @param prompt the prompt's specification
	 * @return the screened specification
	 */
	public AsyncPromptSpecification screened(AsyncPromptSpecification prompt) {
		String name = prompt.prompt().name();
		if (this.handlers.screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpAsyncServerExchange, GetPromptRequest, Mono<GetPromptResult>> handler = prompt.promptHandler();
		return new AsyncPromptSpecification(prompt.prompt(),
				(McpHandlers.Screened<McpAsyncServerExchange, GetPromptRequest, Mono<GetPromptResult>>) (exchange,
						request) -> this.handlers.promptAsync(name, McpScope.of(exchange.transportContext(), request.meta()), request,
								(passed) -> handler.apply(exchange, passed)));
	}

	/**
	 * A stateless server's prompt whose arguments and results are screened; one that is excluded, or already
	 * screened, is returned as it is.
	 * @param prompt the prompt's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.SyncPromptSpecification screened(
			McpStatelessServerFeatures.SyncPromptSpecification prompt) {
		String name = prompt.prompt().name();
		if (this.handlers.screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpTransportContext, GetPromptRequest, GetPromptResult> handler = prompt.promptHandler();
		return new McpStatelessServerFeatures.SyncPromptSpecification(prompt.prompt(),
				(McpHandlers.Screened<McpTransportContext, GetPromptRequest, GetPromptResult>) (context, request) -> this.handlers.promptSync(name,
						McpScope.of(context, request.meta()), request, (passed) -> handler.apply(context, passed)));
	}

	/**
	 * A stateless server's prompt whose arguments and results are screened; one that is excluded, or already
	 * screened, is returned as it is.
	 * @param prompt the prompt's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.AsyncPromptSpecification screened(
			McpStatelessServerFeatures.AsyncPromptSpecification prompt) {
		String name = prompt.prompt().name();
		if (this.handlers.screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpTransportContext, GetPromptRequest, Mono<GetPromptResult>> handler = prompt.promptHandler();
		return new McpStatelessServerFeatures.AsyncPromptSpecification(prompt.prompt(),
				(McpHandlers.Screened<McpTransportContext, GetPromptRequest, Mono<GetPromptResult>>) (context,
						request) -> this.handlers.promptAsync(name, McpScope.of(context, request.meta()), request,
								(passed) -> handler.apply(context, passed)));
	}

	/**
	 * A resource whose contents are screened; one that is excluded, or already screened, is returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public SyncResourceSpecification screened(SyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (this.handlers.screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new SyncResourceSpecification(resource.resource(), this.handlers.syncRead(name, resource.readHandler()));
	}

	/**
	 * A resource whose contents are screened; one that is excluded, or already screened, is returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public AsyncResourceSpecification screened(AsyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (this.handlers.screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new AsyncResourceSpecification(resource.resource(), this.handlers.asyncRead(name, resource.readHandler()));
	}

	/**
	 * A stateless server's resource whose contents are screened; one that is excluded, or already screened, is
	 * returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.SyncResourceSpecification screened(
			McpStatelessServerFeatures.SyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (this.handlers.screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new McpStatelessServerFeatures.SyncResourceSpecification(resource.resource(),
				this.handlers.statelessSyncRead(name, resource.readHandler()));
	}

	/**
	 * A stateless server's resource whose contents are screened; one that is excluded, or already screened, is
	 * returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.AsyncResourceSpecification screened(
			McpStatelessServerFeatures.AsyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (this.handlers.screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new McpStatelessServerFeatures.AsyncResourceSpecification(resource.resource(),
				this.handlers.statelessAsyncRead(name, resource.readHandler()));
	}

	/**
	 * Resources of a URI template whose contents are screened; excluded by the template as declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public SyncResourceTemplateSpecification screened(SyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (this.handlers.screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new SyncResourceTemplateSpecification(resources.resourceTemplate(), this.handlers.syncRead(name, resources.readHandler()));
	}

	/**
	 * Resources of a URI template whose contents are screened; excluded by the template as declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public AsyncResourceTemplateSpecification screened(AsyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (this.handlers.screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new AsyncResourceTemplateSpecification(resources.resourceTemplate(),
				this.handlers.asyncRead(name, resources.readHandler()));
	}

	/**
	 * A stateless server's resources of a URI template whose contents are screened; excluded by the template as
	 * declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.SyncResourceTemplateSpecification screened(
			McpStatelessServerFeatures.SyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (this.handlers.screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new McpStatelessServerFeatures.SyncResourceTemplateSpecification(resources.resourceTemplate(),
				this.handlers.statelessSyncRead(name, resources.readHandler()));
	}

	/**
	 * A stateless server's resources of a URI template whose contents are screened; excluded by the template as
	 * declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.AsyncResourceTemplateSpecification screened(
			McpStatelessServerFeatures.AsyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (this.handlers.screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(resources.resourceTemplate(),
				this.handlers.statelessAsyncRead(name, resources.readHandler()));
	}

}
