package dev.modelarmor.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import dev.modelarmor.ai.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.ai.ModelArmorAdvisorOptions.StreamMode;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.guard.MatchAction;
import dev.modelarmor.guard.ModelArmorNotScreenedException;
import dev.modelarmor.guard.ModelArmorViolationException;
import dev.modelarmor.guard.Phase;
import dev.modelarmor.guard.Screener;
import dev.modelarmor.guard.ScreeningObserver;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * A Spring AI {@code ChatClient} advisor that screens the user prompt with Model Armor before the model
 * and the model's answer after it, with the decision policy of the {@link Screener} (the same as for
 * {@code @ModelArmorGuarded} methods): a {@link MatchAction} for matches, fail-open or fail-closed for
 * screening that cannot complete, and a {@link ScreeningObserver} report of every screening.
 *
 * <p><strong>The prompt</strong> is the text of every user message of the request, joined by a blank
 * line: all of what the user sent is screened. At the default order the advisor runs before chat memory,
 * so that is the current turn's messages, not the history. A blocked prompt never reaches the rest of the
 * chain: not the model, not chat memory, not tools. {@link MatchAction#DEIDENTIFY} rewrites the user
 * message before the chain goes on, which needs a single user message; with several, a match that could
 * be de-identified blocks. Only text is screened, not media; a request without user text is not
 * screened.
 *
 * <p><strong>The answer</strong> is the text of the response's generations, joined by a blank line, and
 * is screened together with the (possibly de-identified) prompt. {@link MatchAction#DEIDENTIFY} rewrites
 * the generation's text, which needs a single generation with text. A response without text (only tool
 * calls, say) is not screened.
 *
 * <p><strong>A blocked call</strong> ({@link OnBlock}) returns the refusal as the assistant's answer,
 * with the keys {@link #BLOCKED}, {@link #PHASE}, {@link #REASON} and {@link #FILTERS} in the response's
 * metadata and in the advisor context, and the generation's finish reason {@value #FINISH_REASON}; or it
 * throws {@link ModelArmorViolationException} (a match) or {@link ModelArmorNotScreenedException}
 * (screening could not complete and fail-open is off). Neither the refusal, nor the exceptions, nor the
 * log lines carry any of the content.
 *
 * <p><strong>Streaming</strong> follows {@link StreamMode}: {@code BUFFERED} screens the whole answer
 * before any of it is emitted, {@code PER_CHUNK} screens each chunk as it comes. Model Armor calls, which
 * block, run on {@link Schedulers#boundedElastic()}.
 */
public final class ModelArmorAdvisor implements CallAdvisor, StreamAdvisor {

	/** Metadata and context key: {@code true} on an answer that is the refusal of a blocked call. */
	public static final String BLOCKED = "modelarmor.blocked";

	/** Metadata and context key: which side was blocked, {@code prompt} or {@code response}. */
	public static final String PHASE = "modelarmor.phase";

	/**
	 * Metadata and context key: why, {@code matched} (a filter matched) or {@code not_screened}
	 * (screening could not complete and fail-open is off).
	 */
	public static final String REASON = "modelarmor.reason";

	/** Metadata and context key: the names of the filters that matched, a {@code Set<String>}. */
	public static final String FILTERS = "modelarmor.filters";

	/** The finish reason of the refusal's generation. */
	public static final String FINISH_REASON = "CONTENT_FILTER";

	private static final String NAME = "ModelArmorAdvisor";

	private static final String CALL = NAME + ".adviseCall";

	private static final String STREAM = NAME + ".adviseStream";

	private static final String SEPARATOR = "\n\n";

	private final ModelArmorOperations operations;

	private final Screener screener;

	private final ModelArmorAdvisorOptions options;

	private final Scheduler scheduler;

	/**
	 * Creates an advisor.
	 * @param operations the Model Armor client, bound to the template to screen with
	 * @param screener the decision policy
	 * @param options how the advisor acts
	 */
	public ModelArmorAdvisor(ModelArmorOperations operations, Screener screener, ModelArmorAdvisorOptions options) {
		this(operations, screener, options, Schedulers.boundedElastic());
	}

	/**
	 * Creates an advisor whose Model Armor calls in streams run on the given scheduler.
	 * @param operations the Model Armor client, bound to the template to screen with
	 * @param screener the decision policy
	 * @param options how the advisor acts
	 * @param scheduler where the blocking Model Armor calls of streams run
	 */
	public ModelArmorAdvisor(ModelArmorOperations operations, Screener screener, ModelArmorAdvisorOptions options,
			Scheduler scheduler) {
		this.operations = Objects.requireNonNull(operations, "operations");
		this.screener = Objects.requireNonNull(screener, "screener");
		this.options = Objects.requireNonNull(options, "options");
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
	}

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public int getOrder() {
		return this.options.order();
	}

	/**
	 * How this advisor acts.
	 * @return the options
	 */
	public ModelArmorAdvisorOptions options() {
		return this.options;
	}

	@Override
	public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
		Screened prompt = screenPrompt(CALL, request);
		if (prompt.refusal() != null) {
			return prompt.refusal();
		}
		ChatClientResponse response = chain.nextCall(prompt.request());
		return screenAnswer(CALL, response, prompt.text());
	}

	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		return Mono.fromCallable(() -> screenPrompt(STREAM, request))
			.subscribeOn(this.scheduler)
			.flatMapMany((prompt) -> {
				if (prompt.refusal() != null) {
					return Flux.just(prompt.refusal());
				}
				Flux<ChatClientResponse> answer = chain.nextStream(prompt.request());
				return (this.options.streamMode() == StreamMode.PER_CHUNK) ? perChunk(answer, prompt.text())
						: buffered(answer, prompt.text());
			});
	}

	private Flux<ChatClientResponse> buffered(Flux<ChatClientResponse> answer, @Nullable String prompt) {
		return answer.collectList().flatMapMany((chunks) -> {
			if (chunks.isEmpty()) {
				return Flux.empty();
			}
			return Mono.fromCallable(() -> screenBuffered(chunks, prompt))
				.subscribeOn(this.scheduler)
				.flatMapMany(Flux::fromIterable);
		});
	}

	private List<ChatClientResponse> screenBuffered(List<ChatClientResponse> chunks, @Nullable String prompt) {
		String text = chunks.stream().map(ModelArmorAdvisor::answerText).collect(Collectors.joining());
		ChatClientResponse last = chunks.get(chunks.size() - 1);
		if (text.isBlank()) {
			return chunks;
		}
		try {
			String replacement = this.screener.screen(STREAM, Phase.RESPONSE, this.options.onMatch(), true,
					() -> sanitizeAnswer(text, prompt));
			return (replacement != null) ? List.of(withText(last, replacement)) : chunks;
		}
		catch (ModelArmorViolationException ex) {
			return List.of(refuseOrThrow(ex, last.context(), Phase.RESPONSE, "matched", ex.matchedFilters()));
		}
		catch (ModelArmorNotScreenedException ex) {
			return List.of(refuseOrThrow(ex, last.context(), Phase.RESPONSE, "not_screened", Set.of()));
		}
	}

	private Flux<ChatClientResponse> perChunk(Flux<ChatClientResponse> answer, @Nullable String prompt) {
		return answer.concatMap((chunk) -> Mono.fromCallable(() -> screenChunk(chunk, prompt)).subscribeOn(this.scheduler))
			.takeUntil(Chunk::last)
			.map(Chunk::response);
	}

	private Chunk screenChunk(ChatClientResponse chunk, @Nullable String prompt) {
		String text = answerText(chunk);
		if (text.isBlank()) {
			return new Chunk(chunk, false);
		}
		try {
			String replacement = this.screener.screen(STREAM, Phase.RESPONSE, this.options.onMatch(),
					replaceable(chunk), () -> sanitizeAnswer(text, prompt));
			return new Chunk((replacement != null) ? withText(chunk, replacement) : chunk, false);
		}
		catch (ModelArmorViolationException ex) {
			return new Chunk(refuseOrThrow(ex, chunk.context(), Phase.RESPONSE, "matched", ex.matchedFilters()), true);
		}
		catch (ModelArmorNotScreenedException ex) {
			return new Chunk(refuseOrThrow(ex, chunk.context(), Phase.RESPONSE, "not_screened", Set.of()), true);
		}
	}

	private Screened screenPrompt(String caller, ChatClientRequest request) {
		List<UserMessage> users = request.prompt().getUserMessages();
		String text = users.stream()
			.map(UserMessage::getText)
			.filter((t) -> t != null && !t.isBlank())
			.collect(Collectors.joining(SEPARATOR));
		if (text.isBlank()) {
			return new Screened(request, null, null);
		}
		try {
			String replacement = this.screener.screen(caller, Phase.PROMPT, this.options.onMatch(), users.size() == 1,
					() -> this.operations.sanitizeUserPrompt(text));
			if (replacement == null) {
				return new Screened(request, text, null);
			}
			ChatClientRequest rewritten = request.mutate()
				.prompt(request.prompt().augmentUserMessage((user) -> user.mutate().text(replacement).build()))
				.build();
			return new Screened(rewritten, replacement, null);
		}
		catch (ModelArmorViolationException ex) {
			return new Screened(request, text,
					refuseOrThrow(ex, request.context(), Phase.PROMPT, "matched", ex.matchedFilters()));
		}
		catch (ModelArmorNotScreenedException ex) {
			return new Screened(request, text, refuseOrThrow(ex, request.context(), Phase.PROMPT, "not_screened", Set.of()));
		}
	}

	private ChatClientResponse screenAnswer(String caller, ChatClientResponse response, @Nullable String prompt) {
		String text = answerText(response);
		if (text.isBlank()) {
			return response;
		}
		try {
			String replacement = this.screener.screen(caller, Phase.RESPONSE, this.options.onMatch(),
					replaceable(response), () -> sanitizeAnswer(text, prompt));
			return (replacement != null) ? withText(response, replacement) : response;
		}
		catch (ModelArmorViolationException ex) {
			return refuseOrThrow(ex, response.context(), Phase.RESPONSE, "matched", ex.matchedFilters());
		}
		catch (ModelArmorNotScreenedException ex) {
			return refuseOrThrow(ex, response.context(), Phase.RESPONSE, "not_screened", Set.of());
		}
	}

	private SanitizationResult sanitizeAnswer(String text, @Nullable String prompt) {
		return (prompt != null) ? this.operations.sanitizeModelResponse(text, prompt)
				: this.operations.sanitizeModelResponse(text);
	}

	private ChatClientResponse refuseOrThrow(RuntimeException ex, Map<String, Object> context, Phase phase,
			String reason, Set<String> filters) {
		if (this.options.onBlock() == OnBlock.THROW) {
			throw ex;
		}
		return refusal(context, phase, reason, filters);
	}

	private ChatClientResponse refusal(Map<String, Object> context, Phase phase, String reason, Set<String> filters) {
		String phaseName = phase.name().toLowerCase(Locale.ROOT);
		Set<String> matched = Set.copyOf(filters);
		ChatGenerationMetadata generationMetadata = ChatGenerationMetadata.builder()
			.finishReason(FINISH_REASON)
			.contentFilters(matched)
			.build();
		ChatResponseMetadata metadata = ChatResponseMetadata.builder()
			.keyValue(BLOCKED, Boolean.TRUE)
			.keyValue(PHASE, phaseName)
			.keyValue(REASON, reason)
			.keyValue(FILTERS, matched)
			.build();
		ChatResponse chatResponse = ChatResponse.builder()
			.generations(List.of(new Generation(new AssistantMessage(this.options.refusal()), generationMetadata)))
			.metadata(metadata)
			.build();
		return ChatClientResponse.builder()
			.chatResponse(chatResponse)
			.context(context)
			.context(BLOCKED, Boolean.TRUE)
			.context(PHASE, phaseName)
			.context(REASON, reason)
			.context(FILTERS, matched)
			.build();
	}

	private static List<Generation> generations(ChatClientResponse response) {
		ChatResponse chatResponse = response.chatResponse();
		return (chatResponse != null) ? chatResponse.getResults() : List.of();
	}

	private static String answerText(ChatClientResponse response) {
		return generations(response).stream()
			.map(ModelArmorAdvisor::text)
			.filter((text) -> !text.isEmpty())
			.collect(Collectors.joining(SEPARATOR));
	}

	private static String text(Generation generation) {
		AssistantMessage output = generation.getOutput();
		String text = (output != null) ? output.getText() : null;
		return (text != null) ? text : "";
	}

	private static boolean replaceable(ChatClientResponse response) {
		return generations(response).stream().filter((generation) -> !text(generation).isEmpty()).count() == 1;
	}

	/**
	 * The response with its only generation that has text rewritten; for a buffered stream, the last
	 * chunk carrying the whole de-identified answer.
	 */
	private static ChatClientResponse withText(ChatClientResponse response, String text) {
		ChatResponse chatResponse = response.chatResponse();
		if (chatResponse == null) {
			chatResponse = new ChatResponse(List.of());
		}
		List<Generation> generations = new ArrayList<>(chatResponse.getResults());
		int index = 0;
		for (int i = 0; i < generations.size(); i++) {
			if (!text(generations.get(i)).isEmpty()) {
				index = i;
				break;
			}
		}
		Generation generation = generations.isEmpty() ? null : generations.get(index);
		AssistantMessage output = (generation != null && generation.getOutput() != null)
				? generation.getOutput().mutate().content(text).build() : new AssistantMessage(text);
		Generation rewritten = (generation != null) ? new Generation(output, generation.getMetadata())
				: new Generation(output);
		if (generations.isEmpty()) {
			generations.add(rewritten);
		}
		else {
			generations.set(index, rewritten);
		}
		ChatResponse rewrittenResponse = ChatResponse.builder().from(chatResponse).generations(generations).build();
		return response.mutate().chatResponse(rewrittenResponse).build();
	}

	/**
	 * The prompt side decided: the request to go on with and the prompt text the answer is screened
	 * against, or the refusal to answer with.
	 */
	private record Screened(ChatClientRequest request, @Nullable String text, @Nullable ChatClientResponse refusal) {
	}

	/** A screened chunk of a stream, and whether it ends the stream. */
	private record Chunk(ChatClientResponse response, boolean last) {
	}

}
