package dev.modelarmor.langchain4j;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
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
 * The screenings of one request run at once; a request waits for them, bounded by the retry deadline. Unless
 * given a template, it screens with the one the starter's tenant resolver chooses for the call's tenant
 * ({@link TenantSource}): the tenant of the servlet request, or with {@link #screen(ChatRequest, Object)} the chat
 * memory id; a tool result, and the specifications of a request after tools ran, with the template of the tool
 * call's tenant when the {@link ModelArmorToolInputGuardrail} made with this guardrail saw its invocation.
 */
public final class ModelArmorToolOutputGuardrail implements UnaryOperator<ChatRequest> {

	/** The text a refused tool result is replaced with unless another is given. */
	public static final String DEFAULT_REFUSAL = "The tool call was blocked by a content safety check and returned no result.";

	/** Decisions kept, of tool specifications and of tool results; beyond them, each is screened again. */
	private static final int MAX_KEPT = 1024;

	/** The default template, as a key. */
	private static final String NO_TEMPLATE = "";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final String refusal;

	private final TenantSource tenants;

	/** Whether a tool specification passed, by the template it was screened with and the specification. */
	private final Map<Offered, Boolean> offered = new ConcurrentHashMap<>();

	/**
	 * The refusals of the tools withheld, by template and name, so that a withheld tool the model calls anyway
	 * does not run.
	 */
	private final Map<String, Refusal> withheld = new ConcurrentHashMap<>();

	/**
	 * The template of each tool call, by its id, as the {@link ModelArmorToolInputGuardrail} saw it in the call's
	 * invocation ({@link #NO_TEMPLATE} for the default one): its result is screened with it.
	 */
	private final Map<String, String> callTemplates = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {

		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
			return size() > MAX_KEPT;
		}

	});

	/** Whether a tool result passed, by a digest of its call id, tool name and text. */
	private final Map<String, Boolean> results = new ConcurrentHashMap<>();

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 * @param refusal what the model reads in place of a refused tool result
	 */
	public ModelArmorToolOutputGuardrail(ModelArmorScreening screening, @Nullable String template, String refusal) {
		this(screening, template, refusal, TenantSource.INVOCATION_PARAMETER);
	}

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * @param refusal what the model reads in place of a refused tool result
	 * @param tenants where a call's tenant is found
	 */
	public ModelArmorToolOutputGuardrail(ModelArmorScreening screening, @Nullable String template, String refusal,
			TenantSource tenants) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.refusal = Objects.requireNonNull(refusal, "refusal must not be null");
		this.tenants = Objects.requireNonNull(tenants, "tenants must not be null");
	}

	/**
	 * Screens a request of a call that names no chat memory: the tenant is the servlet request's (or, for a tool
	 * result, the one its tool call's invocation named).
	 * @param request the request to the model
	 * @return the request to send
	 */
	@Override
	public ChatRequest apply(ChatRequest request) {
		return screen(request, null);
	}

	/**
	 * Screens a request of a call, with the template the tenant resolver chooses for the call's tenant: hand
	 * {@code modelArmorToolOutputGuardrail::screen} to {@code AiServices.builder(..).chatRequestTransformer(..)}
	 * when tenants are chat memory ids ({@link TenantSource#CHAT_MEMORY_ID}), since LangChain4j tells a chat
	 * request transformer the call's memory id and nothing else of it. A tool result is screened with the
	 * template of its tool call's tenant when the {@link ModelArmorToolInputGuardrail} made with this guardrail
	 * saw it.
	 * @param request the request to the model
	 * @param chatMemoryId the call's chat memory id, or {@code null}
	 * @return the request to send
	 */
	public ChatRequest screen(ChatRequest request, @Nullable Object chatMemoryId) {
		String tenant = this.tenants.tenant(null, chatMemoryId);
		Screenings.Bound bound = Screenings.bind(this.screening,
				ScreeningRequest.of(Phase.TOOL_DEFINITION, "tools", "").withTemplate(this.template), tenant,
				TenantSource.attributes(null, chatMemoryId));
		boolean tenantRefused = bound.refusal() != null;
		// the tool calls' own templates only where the request itself names no tenant
		boolean byToolCall = tenant == null && this.template == null;
		List<ChatMessage> messages = request.messages();
		String requestTemplate = bound.template();
		for (ChatMessage message : messages) {
			// after tools ran, the template the invocation of the latest tool call named
			if (byToolCall && message instanceof ToolExecutionResultMessage result && result.id() != null) {
				String called = this.callTemplates.get(result.id());
				requestTemplate = (called != null) ? template(called) : requestTemplate;
			}
		}
		String specificationTemplate = requestTemplate;
		List<ToolSpecification> specifications = request.toolSpecifications();
		Map<ToolSpecification, CompletableFuture<Boolean>> specificationChecks = new LinkedHashMap<>();
		if (specifications != null) {
			for (ToolSpecification specification : specifications) {
				specificationChecks.computeIfAbsent(specification, (tool) -> tenantRefused
						? CompletableFuture.completedFuture(false) : offered(specificationTemplate, tool));
			}
		}
		Map<Integer, CompletableFuture<Boolean>> resultChecks = new LinkedHashMap<>();
		for (int i = 0; i < messages.size(); i++) {
			if (messages.get(i) instanceof ToolExecutionResultMessage result) {
				resultChecks.put(i, tenantRefused ? CompletableFuture.completedFuture(false)
						: passes(byToolCall ? resultTemplate(result, bound.template()) : bound.template(), result));
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

	private CompletableFuture<Boolean> offered(@Nullable String template, ToolSpecification specification) {
		Offered key = new Offered(key(template), specification);
		Boolean known = this.offered.get(key);
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		String withheldKey = withheldKey(template, String.valueOf(specification.name()));
		String text = ToolSpecificationText.of(specification);
		if (text == null) {
			if (this.withheld.size() < MAX_KEPT) {
				this.withheld.putIfAbsent(withheldKey, new ScreeningDecision.Rejected(Phase.TOOL_DEFINITION,
						"tool specification nested too deep to screen", false, null));
			}
			return CompletableFuture.completedFuture(false);
		}
		return this.screening
			.screenAsync(ScreeningRequest.of(Phase.TOOL_DEFINITION, "tool " + Screenings.loggable(specification.name()),
					text)
				.withTemplate(template))
			.thenApply((decision) -> {
				if (decision instanceof Refusal refusal && specification.name() != null
						&& this.withheld.size() < MAX_KEPT) {
					this.withheld.put(withheldKey, refusal);
				}
				else if (!(decision instanceof Refusal) && specification.name() != null) {
					this.withheld.remove(withheldKey);
				}
				return keep(this.offered, key, decision);
			});
	}

	/**
	 * The refusal of a tool withheld from the model, which must not run when the model calls it anyway.
	 * @param template the template of the call, or {@code null} for the default one
	 * @param toolName the name of the tool the model called
	 * @return the refusal, or {@code null} when no tool of that name was withheld
	 */
	@Nullable Refusal withheld(@Nullable String template, String toolName) {
		String screenedWith = (this.template != null) ? this.template : template;
		return this.withheld.get(withheldKey(screenedWith, toolName));
	}

	/**
	 * Remembers the template of a tool call, as the invocation that called it chose it, for its result.
	 * @param toolCallId the tool call's id, or {@code null} when the model gave none
	 * @param template its template, or {@code null} for the default one
	 */
	void calledFor(@Nullable String toolCallId, @Nullable String template) {
		if (toolCallId != null && !toolCallId.isEmpty()) {
			this.callTemplates.put(toolCallId, key(template));
		}
	}

	private @Nullable String resultTemplate(ToolExecutionResultMessage result, @Nullable String requestTemplate) {
		if (result.id() == null) {
			return requestTemplate;
		}
		String called = this.callTemplates.get(result.id());
		return (called != null) ? template(called) : requestTemplate;
	}

	private static String key(@Nullable String template) {
		return (template != null) ? template : NO_TEMPLATE;
	}

	private static @Nullable String template(String key) {
		return key.isEmpty() ? null : key;
	}

	private static String withheldKey(@Nullable String template, String toolName) {
		return key(template) + '\u0000' + toolName;
	}

	/** A tool specification as screened with one template. */
	private record Offered(String template, ToolSpecification specification) {
	}

	private CompletableFuture<Boolean> passes(@Nullable String template, ToolExecutionResultMessage result) {
		String text = result.text();
		if (text == null || text.isBlank()) {
			return CompletableFuture.completedFuture(true);
		}
		if (text.equals(this.refusal)) {
			return CompletableFuture.completedFuture(true);
		}
		String key = digest(key(template) + '\u0000' + result.id(), result.toolName(), text);
		Boolean known = this.results.get(key);
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		return this.screening
			.screenAsync(ScreeningRequest.of(Phase.TOOL_RESULT, "tool " + Screenings.loggable(result.toolName()), text)
				.withTemplate(template)
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
