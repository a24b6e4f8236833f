package dev.modelarmor.ai.mcp;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Outcome;
import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Part;
import dev.modelarmor.ai.tool.ModelArmorToolScreener;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
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
 * The handlers {@link ModelArmorMcpServerScreener} puts in place of a specification's own: each screens what its
 * request brings before the handler runs and what the handler answers before it leaves, on the sync, async and
 * stateless servers alike.
 */
final class McpHandlers {

	private final McpPartScreening parts;

	private final ModelArmorMcpServerOptions options;

	private final ModelArmorMcpServerObserver observer;

	private final @Nullable ModelArmorToolScreener definitions;

	McpHandlers(McpPartScreening parts, ModelArmorMcpServerOptions options, ModelArmorMcpServerObserver observer,
			@Nullable ModelArmorToolScreener definitions) {
		this.parts = parts;
		this.options = options;
		this.observer = observer;
		this.definitions = definitions;
	}

	BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> syncTool(Tool tool,
			BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> delegate) {
		return new SyncToolHandler(tool, delegate);
	}

	BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> asyncTool(Tool tool,
			BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> delegate) {
		return new AsyncToolHandler(tool, delegate);
	}

	BiFunction<McpTransportContext, CallToolRequest, CallToolResult> statelessSyncTool(Tool tool,
			BiFunction<McpTransportContext, CallToolRequest, CallToolResult> delegate) {
		return new StatelessSyncToolHandler(tool, delegate);
	}

	BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> statelessAsyncTool(Tool tool,
			BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> delegate) {
		return new StatelessAsyncToolHandler(tool, delegate);
	}

	boolean screenedOrExcludedPrompt(Object handler, String name) {
		return handler instanceof ScreenedHandler || this.options.excludedPrompts().contains(name);
	}

	boolean screenedOrExcludedResource(Object handler, String name) {
		return handler instanceof ScreenedHandler || this.options.excludedResources().contains(name);
	}

	/** Screens the arguments on the receiving thread, runs the prompt there, and screens its result. */
	GetPromptResult promptSync(String name, McpScope scope, GetPromptRequest request,
			Function<GetPromptRequest, GetPromptResult> run) {
		GetPromptRequest passed = McpContentScreening.await(this.parts.promptArguments(name, request, scope));
		return McpContentScreening.await(this.parts.promptResult(name, run.apply(passed), scope));
	}

	/** Screens the arguments, then subscribes to the prompt, and screens its result, without blocking. */
	Mono<GetPromptResult> promptAsync(String name, McpScope scope, GetPromptRequest request,
			Function<GetPromptRequest, Mono<GetPromptResult>> run) {
		return Mono.fromFuture(() -> this.parts.promptArguments(name, request, scope))
			.flatMap(run)
			.flatMap((result) -> Mono.fromFuture(() -> this.parts.promptResult(name, result, scope)));
	}

	BiFunction<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult> syncRead(String name,
			BiFunction<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult> handler) {
		return (Screened<McpSyncServerExchange, ReadResourceRequest, ReadResourceResult>) (exchange,
				request) -> readSync(name, McpScope.of(exchange.transportContext(), request.meta()),
						() -> handler.apply(exchange, request));
	}

	BiFunction<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>> asyncRead(String name,
			BiFunction<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>> handler) {
		return (Screened<McpAsyncServerExchange, ReadResourceRequest, Mono<ReadResourceResult>>) (exchange,
				request) -> readAsync(name, McpScope.of(exchange.transportContext(), request.meta()),
						() -> handler.apply(exchange, request));
	}

	BiFunction<McpTransportContext, ReadResourceRequest, ReadResourceResult> statelessSyncRead(String name,
			BiFunction<McpTransportContext, ReadResourceRequest, ReadResourceResult> handler) {
		return (Screened<McpTransportContext, ReadResourceRequest, ReadResourceResult>) (context,
				request) -> readSync(name, McpScope.of(context, request.meta()), () -> handler.apply(context, request));
	}

	BiFunction<McpTransportContext, ReadResourceRequest, Mono<ReadResourceResult>> statelessAsyncRead(
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

	boolean excludedTool(Tool tool) {
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
	interface ScreenedHandler {

	}

	/** A handler this screener made, of any specification's shape. */
	interface Screened<T, U, R> extends BiFunction<T, U, R>, ScreenedHandler {

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
