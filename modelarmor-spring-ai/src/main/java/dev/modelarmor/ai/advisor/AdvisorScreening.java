package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import dev.modelarmor.ai.advisor.AdvisorPromptMedia.Part;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.media.MediaItem;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.MemoryAdvisor;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * What the advisor screens and what each decision means for the exchange: the prompt (the text and the
 * media of the user messages of a request, perhaps rewritten), the answer (each generation on its own) and a chunk's tool calls, with
 * the advisor's template and match action. The call path and the stream strategies share it, so that a
 * prompt or an answer is screened the same way whichever path it takes.
 */
final class AdvisorScreening {

	private static final String SEPARATOR = "\n\n";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorAdvisorOptions options;

	private final AdvisorRefusals refusals;

	AdvisorScreening(ModelArmorScreening screening, @Nullable String template, ModelArmorAdvisorOptions options) {
		this.screening = screening;
		this.template = template;
		this.options = options;
		this.refusals = new AdvisorRefusals(options);
	}

	ModelArmorAdvisorOptions options() {
		return this.options;
	}

	/**
	 * This screening for one exchange: bound to the template the resolver chooses for the exchange's tenant
	 * when the advisor names none (the same for its prompt, media, answer and tool calls), or the refusal of
	 * a tenant the resolver refuses.
	 * @param caller names the advisor's path in log lines
	 * @param context the advisor context, which may name the tenant ({@link ModelArmorTenant#KEY})
	 * @param tenant the exchange's tenant, or {@code null}
	 * @return the screening of the exchange, or the refusal's response
	 */
	ForExchange forExchange(String caller, Map<String, @Nullable Object> context, @Nullable String tenant) {
		if (this.template != null && !this.template.isEmpty()) {
			return new ForExchange(this, null);
		}
		ScreeningRequest probe = ScreeningRequest.prompt(caller, "");
		try {
			String chosen = this.screening.resolve(probe, tenant, context).template();
			return new ForExchange((chosen != null) ? new AdvisorScreening(this.screening, chosen, this.options) : this,
					null);
		}
		catch (ModelArmorUnknownTenantException ex) {
			Refusal refusal = (Refusal) this.screening.unknownTenant(probe);
			return new ForExchange(this, this.refusals.refuseOrThrow(refusal, context));
		}
	}

	/**
	 * The screening of one exchange, or the response that refuses it.
	 *
	 * @param screening the screening, bound to the exchange's template
	 * @param refusal the refusal to answer with, or {@code null} to go on
	 */
	record ForExchange(AdvisorScreening screening, @Nullable ChatClientResponse refusal) {
	}

	/**
	 * The request to start the model with while its prompt is screened, carrying the verdict that its tools
	 * wait for; or {@code null} to screen the prompt first: parallel screening is off, there is no prompt
	 * text, the request's options cannot carry the verdict to the tools, or a chat memory advisor is in the
	 * chain (after this one, it would remember a prompt before its verdict, and a blocked one for good).
	 */
	@Nullable ChatClientRequest parallel(ChatClientRequest request, PromptVerdict verdict, List<? extends Advisor> rest) {
		if (!this.options.parallelPromptScreening() || promptText(request).isBlank()
				|| !(request.prompt().getOptions() instanceof ToolCallingChatOptions options)
				|| rest.stream().anyMatch(MemoryAdvisor.class::isInstance)) {
			return null;
		}
		ToolCallingChatOptions carrying = options.mutate().toolContext(PromptVerdict.KEY, verdict).build();
		return request.mutate().prompt(request.prompt().mutate().chatOptions(carrying).build()).build();
	}

	/** The prompt: the text of every user message of the request, joined by a blank line. */
	static String promptText(ChatClientRequest request) {
		return request.prompt()
			.getUserMessages()
			.stream()
			.map(UserMessage::getText)
			.filter((t) -> t != null && !t.isBlank())
			.collect(Collectors.joining(SEPARATOR));
	}

	Screened screenPrompt(String caller, ChatClientRequest request) {
		String text = promptText(request);
		List<Part> media = AdvisorPromptMedia.of(request);
		if (!media.isEmpty()) {
			return join(screenParts(caller, request, text, media));
		}
		if (text.isBlank()) {
			return new Screened(request, null, null);
		}
		return screened(request, text, this.screening.screen(promptRequest(caller, request, text)));
	}

	/** The prompt's screening on the starter's executor (or here, when every thread of it is busy). */
	CompletableFuture<Screened> screenPromptAsync(String caller, ChatClientRequest request, String text) {
		List<Part> media = AdvisorPromptMedia.of(request);
		if (!media.isEmpty()) {
			return screenParts(caller, request, text, media);
		}
		return this.screening.screenAsync(promptRequest(caller, request, text))
			.thenApply((decision) -> screened(request, text, decision));
	}

	/**
	 * The prompt's text and each of its media, each its own Model Armor call (one image per request, never
	 * text and an image together), all at once on the starter's executor: one decision for the prompt, the
	 * first refusal deciding as soon as it comes. Media Model Armor cannot screen is decided without a call.
	 */
	private CompletableFuture<Screened> screenParts(String caller, ChatClientRequest request, String text,
			List<Part> media) {
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>(media.size() + 1);
		for (Part part : media) {
			decisions.add(screenMedia(caller, part.item()));
		}
		boolean hasText = !text.isBlank();
		if (hasText) {
			decisions.add(this.screening.screenAsync(promptRequest(caller, request, text)));
		}
		return ScreeningDecision.firstRefusalOrAll(decisions).thenApply((decided) -> {
			if (decided.size() == 1 && decided.get(0) instanceof Refusal refusal) {
				return new Screened(request, hasText ? text : null, this.refusals.refuseOrThrow(refusal,
						request.context()));
			}
			ChatClientRequest redacted = AdvisorPromptMedia.withRedactions(request, media, decided);
			return hasText ? screened(redacted, text, decided.get(decided.size() - 1))
					: new Screened(redacted, null, null);
		});
	}

	private CompletableFuture<ScreeningDecision> screenMedia(String caller, MediaItem item) {
		if (item instanceof MediaItem.Screenable screenable) {
			return this.screening.screenAsync(ScreeningRequest.prompt(caller, screenable.item())
				.withTemplate(this.template)
				.withOnMatch(this.options.onMatch())
				.withReplaceable(true));
		}
		try {
			return CompletableFuture.completedFuture(
					this.screening.unscreened(caller, Phase.PROMPT, this.template, (MediaItem.Unscreened) item));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private static Screened join(CompletableFuture<Screened> screened) {
		return Futures.join(screened);
	}

	private ScreeningRequest promptRequest(String caller, ChatClientRequest request, String text) {
		return ScreeningRequest.prompt(caller, text)
			.withTemplate(this.template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(request.prompt().getUserMessages().size() == 1);
	}

	/** What the prompt's decision means for the request: go on (maybe rewritten), or the refusal. */
	private Screened screened(ChatClientRequest request, String text, ScreeningDecision decision) {
		if (decision instanceof Refusal refusal) {
			return new Screened(request, text, this.refusals.refuseOrThrow(refusal, request.context()));
		}
		if (decision instanceof Deidentified deidentified) {
			ChatClientRequest rewritten = request.mutate()
				.prompt(request.prompt()
					.augmentUserMessage((user) -> user.mutate().text(deidentified.text()).build()))
				.build();
			return new Screened(rewritten, deidentified.text(), null);
		}
		return new Screened(request, text, null);
	}

	/**
	 * Screens each generation that has text on its own, so that each can be de-identified in place and
	 * none goes through unscreened; the first refusal stops the screening and answers for the response.
	 */
	Answer screenAnswer(String caller, ChatClientResponse response, @Nullable String prompt) {
		List<Generation> generations = ChatResponses.generations(response);
		List<Generation> screened = new ArrayList<>(generations);
		boolean rewritten = false;
		for (int i = 0; i < generations.size(); i++) {
			Generation generation = generations.get(i);
			String text = ChatResponses.text(generation);
			if (text.isBlank()) {
				continue;
			}
			ScreeningDecision decision = screenAnswerText(caller, text, prompt);
			if (decision instanceof Refusal refusal) {
				return new Answer(this.refusals.refuseOrThrow(refusal, response.context()), false, true);
			}
			if (decision instanceof Deidentified deidentified) {
				screened.set(i, ChatResponses.withText(generation, deidentified.text()));
				rewritten = true;
			}
		}
		return rewritten ? new Answer(ChatResponses.withGenerations(response, screened), true, false)
				: new Answer(response, false, false);
	}

	/** Screens one text of the answer (a segment of a stream, say), which may be de-identified. */
	ScreeningDecision screenAnswerText(String caller, String text, @Nullable String prompt) {
		return this.screening.screen(answerRequest(caller, text, prompt, true));
	}

	/** {@link #screenAnswerText} without a thread waiting, for streams. */
	CompletableFuture<ScreeningDecision> screenAnswerTextAsync(String caller, String text, @Nullable String prompt) {
		return this.screening.screenAsync(answerRequest(caller, text, prompt, true));
	}

	/** {@link #screenToolCalls} without a thread waiting, for streams. */
	CompletableFuture<ScreeningDecision> screenToolCallsAsync(String caller, String toolCalls, @Nullable String prompt) {
		return this.screening.screenAsync(answerRequest(caller, toolCalls, prompt, false));
	}

	/**
	 * Screens the names and arguments of tool calls as model output: the caller may run them. They cannot be
	 * de-identified in place, so with {@link MatchAction#DEIDENTIFY} a match blocks.
	 */
	ScreeningDecision screenToolCalls(String caller, String toolCalls, @Nullable String prompt) {
		return this.screening.screen(answerRequest(caller, toolCalls, prompt, false));
	}

	/** The refusal of the first chunk whose tool calls are refused, if any. */
	@Nullable Answer refusedToolCalls(String caller, List<ChatClientResponse> chunks, @Nullable String prompt) {
		for (ChatClientResponse chunk : chunks) {
			String toolCalls = ChatChunks.toolCallsOf(chunk);
			if (!toolCalls.isBlank() && screenToolCalls(caller, toolCalls, prompt) instanceof Refusal refusal) {
				return new Answer(this.refusals.refuseOrThrow(refusal, chunk.context()), false, true);
			}
		}
		return null;
	}

	/** The refusal as the answer, keeping the given context; or its exception. */
	ChatClientResponse refuseOrThrow(Refusal refusal, Map<String, @Nullable Object> context) {
		return this.refusals.refuseOrThrow(refusal, context);
	}

	private ScreeningRequest answerRequest(String caller, String text, @Nullable String prompt, boolean replaceable) {
		return ScreeningRequest.response(caller, text, prompt)
			.withTemplate(this.template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(replaceable);
	}

	/**
	 * The prompt side decided: the request to go on with and the prompt text the answer is screened
	 * against, or the refusal to answer with.
	 */
	record Screened(ChatClientRequest request, @Nullable String text, @Nullable ChatClientResponse refusal) {
	}

	/**
	 * A screened answer, or chunk of a stream: the response to go on with, whether it was rewritten with
	 * de-identified text, and whether it is the refusal (which ends a stream).
	 */
	record Answer(ChatClientResponse response, boolean rewritten, boolean refused) {
	}

}
