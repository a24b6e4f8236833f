package dev.modelarmor.langchain4j;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * Screens what a LangChain4j AI service is about to send a model that no user typed: hand it to
 * {@code AiServices.builder(..).chatRequestTransformer(..)}, which applies it to every request of a call, the
 * first and each one after tools ran.
 * <ul>
 * <li><b>Tool results</b>: each is screened as content going to the model (the prompt-injection filter runs);
 * one that is refused (a match, or screening that could not complete, fail-closed) reaches the model as the
 * refusal text instead, and the call goes on.</li>
 * <li><b>Tool specifications</b>: each tool's name, description and parameter names and descriptions are
 * screened once while they do not change; a tool that is refused is withheld from the model and the others are
 * still offered. A tool withheld this way that the model calls anyway still runs only if the application lets
 * it: a {@link ModelArmorToolInputGuardrail} made with this guardrail (as the auto-configured one is) refuses it
 * before it runs.</li>
 * </ul>
 * The screenings of one request run at once; a request waits for them, bounded by the retry deadline.
 */
public final class ModelArmorToolOutputGuardrail implements UnaryOperator<ChatRequest> {

	/** The text a refused tool result is replaced with unless another is given. */
	public static final String DEFAULT_REFUSAL = "The tool call was blocked by a content safety check and returned no result.";

	/** Decisions kept, of tool specifications and of tool results; beyond them, each is screened again. */
	private static final int MAX_KEPT = 1024;

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final String refusal;

	private final Map<ToolSpecification, Boolean> offered = new ConcurrentHashMap<>();

	/** The refusals of the tools withheld, by name, so that a withheld tool the model calls anyway does not run. */
	private final Map<String, Refusal> withheld = new ConcurrentHashMap<>();

	/** Whether a tool result passed, by a digest of its call id, tool name and text. */
	private final Map<String, Boolean> results = new ConcurrentHashMap<>();

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 * @param refusal what the model reads in place of a refused tool result
	 */
	public ModelArmorToolOutputGuardrail(ModelArmorScreening screening, @Nullable String template, String refusal) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.refusal = Objects.requireNonNull(refusal, "refusal must not be null");
	}

	@Override
	public ChatRequest apply(ChatRequest request) {
		List<ToolSpecification> specifications = request.toolSpecifications();
		Map<ToolSpecification, CompletableFuture<Boolean>> specificationChecks = new LinkedHashMap<>();
		if (specifications != null) {
			for (ToolSpecification specification : specifications) {
				specificationChecks.computeIfAbsent(specification, this::offered);
			}
		}
		List<ChatMessage> messages = request.messages();
		Map<Integer, CompletableFuture<Boolean>> resultChecks = new LinkedHashMap<>();
		for (int i = 0; i < messages.size(); i++) {
			if (messages.get(i) instanceof ToolExecutionResultMessage result) {
				resultChecks.put(i, passes(result));
			}
		}
		List<CompletableFuture<Boolean>> all = new ArrayList<>(specificationChecks.values());
		all.addAll(resultChecks.values());
		if (all.isEmpty()) {
			return request;
		}
		Screenings.await(CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)));
		boolean changed = false;
		List<ChatMessage> screened = new ArrayList<>(messages);
		for (Map.Entry<Integer, CompletableFuture<Boolean>> check : resultChecks.entrySet()) {
			if (!check.getValue().join()) {
				ToolExecutionResultMessage result = (ToolExecutionResultMessage) messages.get(check.getKey());
				screened.set(check.getKey(), ToolExecutionResultMessage.from(result.id(), result.toolName(), this.refusal));
				changed = true;
			}
		}
		List<ToolSpecification> kept = new ArrayList<>();
		if (specifications != null) {
			for (ToolSpecification specification : specifications) {
				if (Objects.requireNonNull(specificationChecks.get(specification)).join()) {
					kept.add(specification);
				}
				else {
					changed = true;
				}
			}
		}
		if (!changed) {
			return request;
		}
		ChatRequestParameters parameters = request.parameters();
		if (kept.size() != ((specifications != null) ? specifications.size() : 0)) {
			// Overriding keeps the provider's own parameters; an empty list would not override, so no tool
			// left is said with parameters of their own, without a tool choice that would require one.
			parameters = !kept.isEmpty()
					? parameters.overrideWith(ChatRequestParameters.builder().toolSpecifications(kept).build())
					: ChatRequestParameters.builder().overrideWith(parameters).toolSpecifications(List.of())
						.toolChoice(null).build();
		}
		return request.toBuilder().messages(screened).parameters(parameters).build();
	}

	private CompletableFuture<Boolean> offered(ToolSpecification specification) {
		Boolean known = this.offered.get(specification);
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		String text = ToolSpecificationText.of(specification);
		if (text == null) {
			this.withheld.putIfAbsent(String.valueOf(specification.name()), new ScreeningDecision.Rejected(
					Phase.TOOL_DEFINITION, "tool specification nested too deep to screen", false, null));
			return CompletableFuture.completedFuture(false);
		}
		return this.screening
			.screenAsync(ScreeningRequest.of(Phase.TOOL_DEFINITION, "tool " + Screenings.loggable(specification.name()),
					text)
				.withTemplate(this.template))
			.thenApply((decision) -> {
				if (decision instanceof Refusal refusal && specification.name() != null
						&& this.withheld.size() < MAX_KEPT) {
					this.withheld.put(specification.name(), refusal);
				}
				else if (!(decision instanceof Refusal) && specification.name() != null) {
					this.withheld.remove(specification.name());
				}
				return keep(this.offered, specification, decision);
			});
	}

	/**
	 * The refusal of a tool withheld from the model, which must not run when the model calls it anyway.
	 * @param toolName the name of the tool the model called
	 * @return the refusal, or {@code null} when no tool of that name was withheld
	 */
	@Nullable Refusal withheld(String toolName) {
		return this.withheld.get(toolName);
	}

	private CompletableFuture<Boolean> passes(ToolExecutionResultMessage result) {
		String text = result.text();
		if (text == null || text.isBlank()) {
			return CompletableFuture.completedFuture(true);
		}
		if (text.equals(this.refusal)) {
			return CompletableFuture.completedFuture(true);
		}
		String key = digest(result.id(), result.toolName(), text);
		Boolean known = this.results.get(key);
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		return this.screening
			.screenAsync(ScreeningRequest.of(Phase.TOOL_RESULT, "tool " + Screenings.loggable(result.toolName()), text)
				.withTemplate(this.template)
				.withOnMatch(MatchAction.BLOCK))
			.thenApply((decision) -> keep(this.results, key, decision));
	}

	/**
	 * Whether the decision lets the text through, kept for the next request when Model Armor decided it: a
	 * screening that could not complete is tried again next time.
	 */
	private static <K> boolean keep(Map<K, Boolean> kept, K key, ScreeningDecision decision) {
		boolean passes = !(decision instanceof Refusal);
		if ((passes || decision instanceof Blocked) && kept.size() < MAX_KEPT) {
			kept.put(key, passes);
		}
		return passes;
	}

	private static String digest(@Nullable String id, @Nullable String toolName, String text) {
		try {
			MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
			sha256.update(String.valueOf(id).getBytes(StandardCharsets.UTF_8));
			sha256.update((byte) 0);
			sha256.update(String.valueOf(toolName).getBytes(StandardCharsets.UTF_8));
			sha256.update((byte) 0);
			sha256.update(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(sha256.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JVM has SHA-256", ex);
		}
	}

}
