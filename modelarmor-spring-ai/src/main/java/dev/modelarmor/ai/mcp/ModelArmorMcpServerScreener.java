package dev.modelarmor.ai.mcp;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Outcome;
import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Part;
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
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.tool.definition.ToolDefinition;

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

	private final McpPartScreening parts;

	private final ModelArmorMcpServerOptions options;

	private final ModelArmorMcpServerObserver observer;

	private final @Nullable ModelArmorToolScreener definitions;

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
		this.observer = Objects.requireNonNull(observer, "observer");
		this.parts = new McpPartScreening(new McpContentScreening(screening, template, options.onMatch()), this.observer);
		this.definitions = options.screenToolDefinitions() ? new ModelArmorToolScreener(screening, template,
				new ModelArmorToolOptions(MatchAction.BLOCK, OnBlockedTool.REFUSE, ModelArmorToolOptions.DEFAULT_REFUSAL),
				failOpen) : null;
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
		if (tool.callHandler() instanceof ScreenedHandler || excludedTool(tool.tool())) {
			return tool;
		}
		return new SyncToolSpecification(tool.tool(), new SyncToolHandler(tool.tool(), tool.callHandler()));
	}

	/**
	 * A tool whose calls are screened; a tool that is excluded, or already screened, is returned as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public AsyncToolSpecification screened(AsyncToolSpecification tool) {
		if (tool.callHandler() instanceof ScreenedHandler || excludedTool(tool.tool())) {
			return tool;
		}
		return new AsyncToolSpecification(tool.tool(), new AsyncToolHandler(tool.tool(), tool.callHandler()));
	}

	/**
	 * A stateless server's tool whose calls are screened; a tool that is excluded, or already screened, is returned
	 * as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.SyncToolSpecification screened(McpStatelessServerFeatures.SyncToolSpecification tool) {
		if (tool.callHandler() instanceof ScreenedHandler || excludedTool(tool.tool())) {
			return tool;
		}
		return new McpStatelessServerFeatures.SyncToolSpecification(tool.tool(),
				new StatelessSyncToolHandler(tool.tool(), tool.callHandler()));
	}

	/**
	 * A stateless server's tool whose calls are screened; a tool that is excluded, or already screened, is returned
	 * as it is.
	 * @param tool the tool's specification
	 * @return the screened specification
	 */
	public McpStatelessServerFeatures.AsyncToolSpecification screened(
			McpStatelessServerFeatures.AsyncToolSpecification tool) {
		if (tool.callHandler() instanceof ScreenedHandler || excludedTool(tool.tool())) {
			return tool;
		}
		return new McpStatelessServerFeatures.AsyncToolSpecification(tool.tool(),
				new StatelessAsyncToolHandler(tool.tool(), tool.callHandler()));
	}

	/**
	 * A prompt whose arguments and results are screened; one that is excluded, or already screened, is returned
	 * as it is.
	 * @param prompt the prompt's specification
	 * @return the screened specification
	 */
	public SyncPromptSpecification screened(SyncPromptSpecification prompt) {
		String name = prompt.prompt().name();
		if (screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpSyncServerExchange, GetPromptRequest, GetPromptResult> handler = prompt.promptHandler();
		return new SyncPromptSpecification(prompt.prompt(),
				(Screened<McpSyncServerExchange, GetPromptRequest, GetPromptResult>) (exchange, request) -> promptSync(
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
		if (screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpAsyncServerExchange, GetPromptRequest, Mono<GetPromptResult>> handler = prompt.promptHandler();
		return new AsyncPromptSpecification(prompt.prompt(),
				(Screened<McpAsyncServerExchange, GetPromptRequest, Mono<GetPromptResult>>) (exchange,
						request) -> promptAsync(name, McpScope.of(exchange.transportContext(), request.meta()), request,
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
		if (screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpTransportContext, GetPromptRequest, GetPromptResult> handler = prompt.promptHandler();
		return new McpStatelessServerFeatures.SyncPromptSpecification(prompt.prompt(),
				(Screened<McpTransportContext, GetPromptRequest, GetPromptResult>) (context, request) -> promptSync(name,
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
		if (screenedOrExcludedPrompt(prompt.promptHandler(), name)) {
			return prompt;
		}
		BiFunction<McpTransportContext, GetPromptRequest, Mono<GetPromptResult>> handler = prompt.promptHandler();
		return new McpStatelessServerFeatures.AsyncPromptSpecification(prompt.prompt(),
				(Screened<McpTransportContext, GetPromptRequest, Mono<GetPromptResult>>) (context,
						request) -> promptAsync(name, McpScope.of(context, request.meta()), request,
								(passed) -> handler.apply(context, passed)));
	}

	/**
	 * A resource whose contents are screened; one that is excluded, or already screened, is returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public SyncResourceSpecification screened(SyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new SyncResourceSpecification(resource.resource(), syncRead(name, resource.readHandler()));
	}

	/**
	 * A resource whose contents are screened; one that is excluded, or already screened, is returned as it is.
	 * @param resource the resource's specification
	 * @return the screened specification
	 */
	public AsyncResourceSpecification screened(AsyncResourceSpecification resource) {
		String name = resource.resource().uri();
		if (screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new AsyncResourceSpecification(resource.resource(), asyncRead(name, resource.readHandler()));
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
		if (screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new McpStatelessServerFeatures.SyncResourceSpecification(resource.resource(),
				statelessSyncRead(name, resource.readHandler()));
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
		if (screenedOrExcludedResource(resource.readHandler(), name)) {
			return resource;
		}
		return new McpStatelessServerFeatures.AsyncResourceSpecification(resource.resource(),
				statelessAsyncRead(name, resource.readHandler()));
	}

	/**
	 * Resources of a URI template whose contents are screened; excluded by the template as declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public SyncResourceTemplateSpecification screened(SyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new SyncResourceTemplateSpecification(resources.resourceTemplate(), syncRead(name, resources.readHandler()));
	}

	/**
	 * Resources of a URI template whose contents are screened; excluded by the template as declared.
	 * @param resources the resource template's specification
	 * @return the screened specification
	 */
	public AsyncResourceTemplateSpecification screened(AsyncResourceTemplateSpecification resources) {
		String name = resources.resourceTemplate().uriTemplate();
		if (screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new AsyncResourceTemplateSpecification(resources.resourceTemplate(),
				asyncRead(name, resources.readHandler()));
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
		if (screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new McpStatelessServerFeatures.SyncResourceTemplateSpecification(resources.resourceTemplate(),
				statelessSyncRead(name, resources.readHandler()));
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
		if (screenedOrExcludedResource(resources.readHandler(), name)) {
			return resources;
		}
		return new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(resources.resourceTemplate(),
				statelessAsyncRead(name, resources.readHandler()));
	}

	private boolean screenedOrExcludedPrompt(Object handler, String name) {
		return handler instanceof ScreenedHandler || this.options.excludedPrompts().contains(name);
	}

	private boolean screenedOrExcludedResource(Object handler, String name) {
		return handler instanceof ScreenedHandler || this.options.excludedResources().contains(name);
	}

	/** Screens the arguments on the receiving thread, runs the prompt there, and screens its result. */
	private GetPromptResult promptSync(String name, McpScope scope, GetPromptRequest request,
			Function<GetPromptRequest, GetPromptResult> run) {
		GetPromptRequest passed = McpContentScreening.await(this.parts.promptArguments(name, request, scope));
		return McpContentScreening.await(this.parts.promptResult(name, run.apply(passed), scope));
	}

	/** Screens the arguments, then subscribes to the prompt, and screens its result, without blocking. */
	private Mono<GetPromptResult> promptAsync(String name, McpScope scope, GetPromptRequest request,
			Function<GetPromptRequest, Mono<GetPromptResult>> run) {
		return Mono.fromFuture(() -> this.parts.promptArguments(name, request, scope))
			.flatMap(run)
			.flatMap((result) -> Mono.fromFuture(() -> this.parts.promptResult(name, result, scope)));
	}

	private BiFunction<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult> syncRead(String name,
			BiFunction<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult> handler) {
		return (Screened<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult>) (exchange,
				request) -> readSync(name, McpScope.of(exchange.transportContext(), request.meta()),
						() -> handler.apply(exchange, request));
	}

	private BiFunction<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>> asyncRead(String name,
			BiFunction<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>> handler) {
		return (Screened<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>>) (exchange,
				request) -> readAsync(name, McpScope.of(exchange.transportContext(), request.meta()),
						() -> handler.apply(exchange, request));
	}

	private BiFunction<McpTransportContext, ReadResourceRequest, ReadResourceResult> statelessSyncRead(String name,
			BiFunction<McpTransportContext, ReadResourceRequest, ReadResourceResult> handler) {
		return (Screened<McpTransportContext, ReadResourceRequest, ReadResourceResult>) (context,
				request) -> readSync(name, McpScope.of(context, request.meta()), () -> handler.apply(context, request));
	}

	private BiFunction<McpTransportContext, ReadResourceRequest, Mono<ReadResourceResult>> statelessAsyncRead(
			String name, BiFunction<McpTransportContext, ReadResourceRequest, Mono<ReadResourceResult>> handler) {
		return (Screened<McpTransportContext, ReadResourceRequest, Mono<ReadResourceResult>>) (context,
				request) -> readAsync(name, McpScope.of(context, request.meta()), () -> handler.apply(context, request));
	}

	/** Reads the resource on the receiving thread and screens its contents. */
	private ReadResourceResult readSync(String name, McpScope scope, Supplier<ReadResourceResult> read) {
		return McpContentScreening.await(this.parts.resourceResult(name, read.get(), scope));
	}

	/** Subscribes to the resource and screens its contents, without blocking. */
	private Mono<ReadResourceResult> readAsync(String name, McpScope scope, Supplier<Mono<ReadResourceResult>> read) {
		return Mono.defer(read).flatMap((result) -> Mono.fromFuture(() -> this.parts.resourceResult(name, result, scope)));
	}

	private boolean excludedTool(Tool tool) {
		return this.options.excludedTools().contains(tool.name());
	}

	/**
	 * The refusal of a tool whose definition is blocked, screened once while it does not change; blocks while it
	 * is screened the first time.
	 */
	private Optional<CallToolResult> definitionRefusal(Tool tool) {
		ModelArmorToolScreener screener = this.definitions;
		if (screener == null) {
			return Optional.empty();
		}
		ToolDefinition definition = ToolDefinition.builder()
			.name(tool.name())
			.description(Objects.requireNonNullElse(tool.description(), ""))
			.inputSchema((tool.inputSchema() != null) ? McpContentScreening.toJson(tool.inputSchema()) : "{}")
			.build();
		if (screener.offers(definition)) {
			return Optional.empty();
		}
		this.observer.screened(Part.TOOL_DEFINITION, tool.name(), Outcome.REFUSED);
		return Optional.of(McpRefusals.toolError(McpRefusals.message("the definition of tool \""
				+ McpRefusals.loggable(tool.name()) + "\"", null)));
	}

	/** A handler this screener made, so that a specification is never screened twice. */
	private interface ScreenedHandler {

	}

	/** A handler this screener made, of any specification's shape. */
	private interface Screened<T, U, R> extends BiFunction<T, U, R>, ScreenedHandler {

	}

	/**
	 * Screens the arguments on the receiving thread, runs the tool there, and screens its result.
	 * @param tool the tool
	 * @param scope the request's tenant and attributes
	 * @param request the call
	 * @param run runs the tool
	 * @return the result, or the refusal in its place
	 */
	private CallToolResult callSync(Tool tool, McpScope scope, CallToolRequest request,
			Function<CallToolRequest, CallToolResult> run) {
		Optional<CallToolResult> withheld = definitionRefusal(tool);
		if (withheld.isPresent()) {
			return withheld.get();
		}
		Optional<CallToolResult> refused = McpContentScreening.await(this.parts.arguments(tool.name(), request, scope));
		if (refused.isPresent()) {
			return refused.get();
		}
		return McpContentScreening.await(this.parts.toolResult(tool.name(), run.apply(request), scope));
	}

	/**
	 * Screens the arguments, then subscribes to the tool, and screens its result, without blocking.
	 * @param tool the tool
	 * @param scope the request's tenant and attributes, read on the thread that received the request
	 * @param request the call
	 * @param run the tool's answer, subscribed to only when the arguments passed
	 * @return the result, or the refusal in its place
	 */
	private Mono<CallToolResult> callAsync(Tool tool, McpScope scope, CallToolRequest request,
			Function<CallToolRequest, Mono<CallToolResult>> run) {
		Mono<Optional<CallToolResult>> withheld = (this.definitions != null)
				? Mono.fromCallable(() -> definitionRefusal(tool)).subscribeOn(Schedulers.boundedElastic())
				: Mono.just(Optional.empty());
		return withheld.flatMap((definition) -> definition.isPresent() ? Mono.just(definition)
				: Mono.fromFuture(() -> this.parts.arguments(tool.name(), request, scope)))
			.flatMap((refused) -> refused.isPresent() ? Mono.just(refused.get())
					: run.apply(request).flatMap((result) -> Mono.fromFuture(() -> this.parts.toolResult(tool.name(), result, scope))));
	}

	/** A sync server's tool, screened. */
	private final class SyncToolHandler
			implements BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult>, ScreenedHandler {

		private final Tool tool;

		private final BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> delegate;

		SyncToolHandler(Tool tool, BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> delegate) {
			this.tool = tool;
			this.delegate = delegate;
		}

		@Override
		public CallToolResult apply(McpSyncServerExchange exchange, CallToolRequest request) {
			return callSync(this.tool, McpScope.of(exchange.transportContext(), request.meta()), request,
					(call) -> this.delegate.apply(exchange, call));
		}

	}

	/** An async server's tool, screened. */
	private final class AsyncToolHandler
			implements BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>>, ScreenedHandler {

		private final Tool tool;

		private final BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> delegate;

		AsyncToolHandler(Tool tool, BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> delegate) {
			this.tool = tool;
			this.delegate = delegate;
		}

		@Override
		public Mono<CallToolResult> apply(McpAsyncServerExchange exchange, CallToolRequest request) {
			return callAsync(this.tool, McpScope.of(exchange.transportContext(), request.meta()), request,
					(call) -> this.delegate.apply(exchange, call));
		}

	}

	/** A stateless sync server's tool, screened. */
	private final class StatelessSyncToolHandler
			implements BiFunction<McpTransportContext, CallToolRequest, CallToolResult>, ScreenedHandler {

		private final Tool tool;

		private final BiFunction<McpTransportContext, CallToolRequest, CallToolResult> delegate;

		StatelessSyncToolHandler(Tool tool, BiFunction<McpTransportContext, CallToolRequest, CallToolResult> delegate) {
			this.tool = tool;
			this.delegate = delegate;
		}

		@Override
		public CallToolResult apply(McpTransportContext context, CallToolRequest request) {
			return callSync(this.tool, McpScope.of(context, request.meta()), request,
					(call) -> this.delegate.apply(context, call));
		}

	}

	/** A stateless async server's tool, screened. */
	private final class StatelessAsyncToolHandler
			implements BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>>, ScreenedHandler {

		private final Tool tool;

		private final BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> delegate;

		StatelessAsyncToolHandler(Tool tool,
				BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> delegate) {
			this.tool = tool;
			this.delegate = delegate;
		}

		@Override
		public Mono<CallToolResult> apply(McpTransportContext context, CallToolRequest request) {
			return callAsync(this.tool, McpScope.of(context, request.meta()), request,
					(call) -> this.delegate.apply(context, call));
		}

	}

}
