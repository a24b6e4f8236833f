package dev.modelarmor.ai.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Outcome;
import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver.Part;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import org.jspecify.annotations.Nullable;

/**
 * The parts of an MCP exchange that {@link ModelArmorMcpServerScreener} screens, each into what the server
 * answers: a tool call's and a prompt's arguments (a refusal in place of the call, or nothing), a tool's result,
 * a prompt's messages and a resource's contents (each passed, de-identified, or refused). Every decision is told to the
 * {@link ModelArmorMcpServerObserver}; refusals name the filters and the declared name, never the content.
 */
final class McpPartScreening {

	private final McpContentScreening contents;

	private final ModelArmorMcpServerObserver observer;

	/**
	 * Creates the screening.
	 * @param contents screens one content, text or JSON
	 * @param observer told what each screening decided
	 */
	McpPartScreening(McpContentScreening contents, ModelArmorMcpServerObserver observer) {
		this.contents = contents;
		this.observer = observer;
	}

	/**
	 * Screens a tool call's arguments as a prompt.
	 * @param name the tool's declared name
	 * @param request the call
	 * @param scope the request's tenant and attributes
	 * @return the error result that refuses the call, or empty when the tool may run
	 */
	CompletableFuture<Optional<CallToolResult>> arguments(String name, CallToolRequest request, McpScope scope) {
		return refusal(Part.TOOL_ARGUMENTS, "tool", name, request.arguments(), scope)
			.thenApply((refusal) -> refusal.map((refused) -> McpRefusals.toolError(McpRefusals
				.message("the arguments of tool \"" + McpRefusals.loggable(name) + "\"", refused))));
	}

	/**
	 * Screens a {@code prompts/get}'s arguments (what the prompt interpolates into its messages) as a prompt.
	 * @param name the prompt's declared name
	 * @param request the request
	 * @param scope the request's tenant and attributes
	 * @return the request when the prompt may run; fails with a JSON-RPC error that refuses it
	 */
	CompletableFuture<GetPromptRequest> promptArguments(String name, GetPromptRequest request, McpScope scope) {
		return refusal(Part.PROMPT_ARGUMENTS, "prompt", name, request.arguments(), scope)
			.thenCompose((refusal) -> refusal.isEmpty() ? CompletableFuture.completedFuture(request)
					: CompletableFuture.failedFuture(McpRefusals.error(McpRefusals.message(
							"the arguments of prompt \"" + McpRefusals.loggable(name) + "\"", refusal.get()))));
	}

	/** Screens a request's arguments as a prompt: the refusal, or empty when they passed. */
	private CompletableFuture<Optional<Refusal>> refusal(Part part, String kind, String name,
			@Nullable Map<String, Object> arguments, McpScope scope) {
		if (arguments == null || arguments.isEmpty()) {
			this.observer.screened(part, name, Outcome.PASSED);
			return CompletableFuture.completedFuture(Optional.empty());
		}
		return this.contents.json(Phase.PROMPT, caller(kind, name), arguments, scope).thenApply((decision) -> {
			if (decision instanceof Refusal refusal) {
				this.observer.screened(part, name, Outcome.REFUSED);
				return Optional.of(refusal);
			}
			this.observer.screened(part, name, Outcome.PASSED);
			return Optional.empty();
		});
	}

	/**
	 * Screens a tool's result (its content parts and structured content) as a response.
	 * @param name the tool's declared name
	 * @param result what the tool returned
	 * @param scope the request's tenant and attributes
	 * @return the result, de-identified, or the error result that refuses it
	 */
	CompletableFuture<CallToolResult> toolResult(String name, @Nullable CallToolResult result, McpScope scope) {
		if (result == null) {
			return CompletableFuture.completedFuture(McpRefusals.toolError("The tool returned no result."));
		}
		String caller = caller("tool", name);
		String what = "the result of tool \"" + McpRefusals.loggable(name) + "\"";
		List<@Nullable Content> parts = McpContentScreening.bounded(result.content());
		if (parts == null) {
			return CompletableFuture.completedFuture(tooManyParts(Part.TOOL_RESULT, name, what));
		}
		List<CompletableFuture<ScreeningDecision>> screenings = new ArrayList<>();
		for (Content part : parts) {
			screenings.add(this.contents.content(Phase.RESPONSE, caller, part, scope));
		}
		Object structured = result.structuredContent();
		if (structured != null) {
			screenings.add(this.contents.json(Phase.RESPONSE, caller, structured, scope));
		}
		return McpContentScreening.all(screenings).thenApply((decisions) -> {
			Refusal refusal = McpContentScreening.refusal(decisions);
			if (refusal != null) {
				this.observer.screened(Part.TOOL_RESULT, name, Outcome.REFUSED);
				return McpRefusals.toolError(McpRefusals.message(what, refusal));
			}
			if (!McpContentScreening.deidentified(decisions)) {
				this.observer.screened(Part.TOOL_RESULT, name, Outcome.PASSED);
				return result;
			}
			this.observer.screened(Part.TOOL_RESULT, name, Outcome.DEIDENTIFIED);
			List<Content> replaced = new ArrayList<>();
			for (int i = 0; i < parts.size(); i++) {
				Content part = parts.get(i);
				if (part != null) {
					replaced.add(McpContentScreening.replaced(part, decisions.get(i)));
				}
			}
			return new CallToolResult(replaced, result.isError(), structured, result.meta());
		});
	}

	private CallToolResult tooManyParts(Part part, String name, String what) {
		this.observer.screened(part, name, Outcome.REFUSED);
		return McpRefusals.toolError(McpRefusals.message(what,
				new Rejected(Phase.RESPONSE, "more than " + McpContentScreening.MAX_PARTS + " parts", true, null)));
	}

	/**
	 * Screens a prompt's messages and description as a response.
	 * @param name the prompt's declared name
	 * @param result what the prompt returned
	 * @param scope the request's tenant and attributes
	 * @return the result, de-identified; fails with a JSON-RPC error that refuses it
	 */
	CompletableFuture<GetPromptResult> promptResult(String name, @Nullable GetPromptResult result,
			McpScope scope) {
		if (result == null) {
			return CompletableFuture.failedFuture(McpRefusals.error("The prompt returned no result."));
		}
		String caller = caller("prompt", name);
		String what = "prompt \"" + McpRefusals.loggable(name) + "\"";
		List<@Nullable PromptMessage> messages = McpContentScreening.bounded(result.messages());
		if (messages == null) {
			this.observer.screened(Part.PROMPT, name, Outcome.REFUSED);
			return CompletableFuture.failedFuture(McpRefusals.error(McpRefusals.message(what, new Rejected(Phase.RESPONSE,
					"more than " + McpContentScreening.MAX_PARTS + " messages", true, null))));
		}
		List<CompletableFuture<ScreeningDecision>> screenings = new ArrayList<>();
		for (PromptMessage message : messages) {
			screenings.add(this.contents.content(Phase.RESPONSE, caller, (message != null) ? message.content() : null,
					scope));
		}
		String description = result.description();
		if (description != null) {
			screenings.add(this.contents.text(Phase.RESPONSE, caller, description, false, scope));
		}
		return McpContentScreening.all(screenings).thenCompose((decisions) -> {
			Refusal refusal = McpContentScreening.refusal(decisions);
			if (refusal != null) {
				this.observer.screened(Part.PROMPT, name, Outcome.REFUSED);
				return CompletableFuture.failedFuture(McpRefusals.error(McpRefusals.message(what, refusal)));
			}
			if (!McpContentScreening.deidentified(decisions)) {
				this.observer.screened(Part.PROMPT, name, Outcome.PASSED);
				return CompletableFuture.completedFuture(result);
			}
			this.observer.screened(Part.PROMPT, name, Outcome.DEIDENTIFIED);
			List<PromptMessage> replaced = new ArrayList<>();
			for (int i = 0; i < messages.size(); i++) {
				PromptMessage message = messages.get(i);
				if (message != null) {
					replaced.add(new PromptMessage(message.role(),
							McpContentScreening.replaced(message.content(), decisions.get(i))));
				}
			}
			return CompletableFuture.completedFuture(new GetPromptResult(description, replaced, result.meta()));
		});
	}

	/**
	 * Screens a resource's contents as a response.
	 * @param name the resource's URI or URI template as declared
	 * @param result what the resource returned
	 * @param scope the request's tenant and attributes
	 * @return the result, de-identified; fails with a JSON-RPC error that refuses it
	 */
	CompletableFuture<ReadResourceResult> resourceResult(String name, @Nullable ReadResourceResult result,
			McpScope scope) {
		if (result == null) {
			return CompletableFuture.failedFuture(McpRefusals.error("The resource returned no contents."));
		}
		String caller = caller("resource", name);
		String what = "resource \"" + McpRefusals.loggable(name) + "\"";
		List<@Nullable ResourceContents> contents = McpContentScreening.bounded(result.contents());
		if (contents == null) {
			this.observer.screened(Part.RESOURCE, name, Outcome.REFUSED);
			return CompletableFuture.failedFuture(McpRefusals.error(McpRefusals.message(what, new Rejected(Phase.RESPONSE,
					"more than " + McpContentScreening.MAX_PARTS + " contents", true, null))));
		}
		List<CompletableFuture<ScreeningDecision>> screenings = new ArrayList<>();
		for (ResourceContents part : contents) {
			screenings.add(this.contents.resource(Phase.RESPONSE, caller, part, scope));
		}
		return McpContentScreening.all(screenings).thenCompose((decisions) -> {
			Refusal refusal = McpContentScreening.refusal(decisions);
			if (refusal != null) {
				this.observer.screened(Part.RESOURCE, name, Outcome.REFUSED);
				return CompletableFuture.failedFuture(McpRefusals.error(McpRefusals.message(what, refusal)));
			}
			if (decisions.stream().noneMatch(Deidentified.class::isInstance)) {
				this.observer.screened(Part.RESOURCE, name, Outcome.PASSED);
				return CompletableFuture.completedFuture(result);
			}
			this.observer.screened(Part.RESOURCE, name, Outcome.DEIDENTIFIED);
			List<ResourceContents> replaced = new ArrayList<>();
			for (int i = 0; i < contents.size(); i++) {
				ResourceContents part = contents.get(i);
				if (part != null) {
					replaced.add(McpContentScreening.replaced(part, decisions.get(i)));
				}
			}
			return CompletableFuture.completedFuture(new ReadResourceResult(replaced, result.meta()));
		});
	}

	private static String caller(String kind, String name) {
		return "MCP " + kind + " " + McpRefusals.loggable(name);
	}

}
