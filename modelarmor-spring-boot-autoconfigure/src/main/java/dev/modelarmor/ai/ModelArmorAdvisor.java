package dev.modelarmor.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

import dev.modelarmor.ai.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.ai.ModelArmorAdvisorOptions.StreamMode;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import dev.modelarmor.screening.ScreeningObserver;
import dev.modelarmor.screening.ScreeningRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.MemoryAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A Spring AI {@code ChatClient} advisor that screens the user prompt with Model Armor before the model
 * and the model's answer after it, with the decision policy of {@link ModelArmorScreening} (the same as for
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
 * <p><strong>The answer</strong>: each generation that has text is screened on its own, together with the
 * (possibly de-identified) prompt, so a response of several generations (several candidates) costs one
 * Model Armor call per generation. {@link MatchAction#DEIDENTIFY} rewrites each generation with its own
 * de-identified text. The first generation that is refused refuses the whole response; no generation
 * reaches the caller unscreened. A generation without text (only tool calls, say) is not screened.
 *
 * <p><strong>A blocked call</strong> ({@link OnBlock}) returns the refusal as the assistant's answer,
 * with the keys {@link #BLOCKED}, {@link #PHASE}, {@link #REASON} and {@link #FILTERS} in the response's
 * metadata and in the advisor context, and the generation's finish reason {@value #FINISH_REASON}; or it
 * throws {@link ModelArmorViolationException} (a match), {@link ModelArmorNotScreenedException}
 * (screening could not complete and fail-open is off) or {@link ModelArmorInputRejectedException} (Model
 * Armor refused the text itself: too large, or answered HTTP 400 or 413; whatever fail-open says).
 * Neither the refusal, nor the exceptions, nor the log lines carry any of the content.
 *
 * <p><strong>Streaming</strong> follows {@link StreamMode}: {@code WINDOWED} (the default) holds the answer
 * back until the window of text that holds it has been screened, windows overlapping so that a match
 * across chunks is found before any of it is emitted ({@link StreamWindows}); {@code BUFFERED} screens
 * the whole answer before any of it is emitted (generation {@code i} being the text of every chunk's
 * generation {@code i}); {@code PER_CHUNK} screens each chunk's generations as they come. In every mode
 * the names and arguments of a chunk's tool calls are screened as model output before the chunk is
 * emitted: the caller may run them. Model Armor calls, which block, run on
 * {@link Schedulers#boundedElastic()}.
 *
 * <p><strong>Parallel prompt screening</strong> ({@link ModelArmorAdvisorOptions#parallelPromptScreening()},
 * off by default) starts the rest of the chain, and so the model, while the prompt is being screened
 * ({@link ModelArmorScreening#screenAsync(ScreeningRequest)}, on the starter's executor): the answer is released (or streamed) only after the prompt's verdict, and discarded when the
 * prompt is blocked (a stream is cancelled; a blocking call runs to its end, its tokens spent). Tool calls
 * wait for the verdict in {@link PromptVerdictToolCallingManager}, which the verdict reaches through the
 * prompt's tool context, and never run for a blocked prompt. A request whose options cannot carry it (not
 * {@code ToolCallingChatOptions}), or a chain with a chat memory advisor, which would remember the prompt
 * before its verdict, is screened first as without the option.
 */
public final class ModelArmorAdvisor implements CallAdvisor, StreamAdvisor {

	/** Metadata and context key: {@code true} on an answer that is the refusal of a blocked call. */
	public static final String BLOCKED = "modelarmor.blocked";

	/** Metadata and context key: which side was blocked, {@code prompt} or {@code response}. */
	public static final String PHASE = "modelarmor.phase";

	/**
	 * Metadata and context key: why, {@code matched} (a filter matched), {@code not_screened} (screening
	 * could not complete and fail-open is off) or {@code input_rejected} (Model Armor refused the text
	 * itself: too large, or answered HTTP 400 or 413).
	 */
	public static final String REASON = "modelarmor.reason";

	/** Metadata and context key: the names of the filters that matched, a {@code Set<String>}. */
	public static final String FILTERS = "modelarmor.filters";

	/** The finish reason of the refusal's generation. */
	public static final String FINISH_REASON = "CONTENT_FILTER";

	private static final Log logger = LogFactory.getLog(ModelArmorAdvisor.class);

	private static final String NAME = "ModelArmorAdvisor";

	private static final String CALL = NAME + ".adviseCall";

	private static final String STREAM = NAME + ".adviseStream";

	private static final String SEPARATOR = "\n\n";

	private static final String MATCHED = "matched";

	private static final String NOT_SCREENED = "not_screened";

	private static final String INPUT_REJECTED = "input_rejected";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorAdvisorOptions options;

	private final Scheduler scheduler;

	/**
	 * Creates an advisor that screens with the default template.
	 * @param screening screens and decides
	 * @param options how the advisor acts
	 */
	public ModelArmorAdvisor(ModelArmorScreening screening, ModelArmorAdvisorOptions options) {
		this(screening, null, options);
	}

	/**
	 * Creates an advisor.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the default
	 * @param options how the advisor acts
	 */
	public ModelArmorAdvisor(ModelArmorScreening screening, @Nullable String template,
			ModelArmorAdvisorOptions options) {
		this(screening, template, options, Schedulers.boundedElastic());
	}

	/**
	 * Creates an advisor whose Model Armor calls in streams run on the given scheduler.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the default
	 * @param options how the advisor acts
	 * @param scheduler where the blocking Model Armor calls of streams run
	 */
	public ModelArmorAdvisor(ModelArmorScreening screening, @Nullable String template,
			ModelArmorAdvisorOptions options, Scheduler scheduler) {
		this.screening = Objects.requireNonNull(screening, "screening");
		this.template = template;
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
		PromptVerdict verdict = new PromptVerdict();
		ChatClientRequest early = parallel(request, verdict, chain.getCallAdvisors());
		if (early != null) {
			return parallelCall(request, early, verdict, chain);
		}
		Screened prompt = screenPrompt(CALL, request);
		if (prompt.refusal() != null) {
			return prompt.refusal();
		}
		ChatClientResponse response = chain.nextCall(prompt.request());
		return screenAnswer(CALL, response, prompt.text()).response();
	}

	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		PromptVerdict verdict = new PromptVerdict();
		ChatClientRequest early = parallel(request, verdict, chain.getStreamAdvisors());
		if (early != null) {
			return parallelStream(request, early, verdict, chain);
		}
		return Mono.fromCallable(() -> screenPrompt(STREAM, request))
			.subscribeOn(this.scheduler)
			.flatMapMany((prompt) -> {
				if (prompt.refusal() != null) {
					return Flux.just(prompt.refusal());
				}
				return screenedStream(chain.nextStream(prompt.request()), prompt.text(), request.context());
			});
	}

	private Flux<ChatClientResponse> screenedStream(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return switch (this.options.streamMode()) {
			case BUFFERED -> buffered(answer, prompt);
			case PER_CHUNK -> perChunk(answer, prompt);
			case WINDOWED -> windowed(answer, prompt, context);
		};
	}

	/**
	 * The request to start the model with while its prompt is screened, carrying the verdict that its tools
	 * wait for; or {@code null} to screen the prompt first: parallel screening is off, there is no prompt
	 * text, the request's options cannot carry the verdict to the tools, or a chat memory advisor is in the
	 * chain (after this one, it would remember a prompt before its verdict, and a blocked one for good).
	 */
	private @Nullable ChatClientRequest parallel(ChatClientRequest request, PromptVerdict verdict,
			List<? extends Advisor> rest) {
		if (!this.options.parallelPromptScreening() || promptText(request).isBlank()
				|| !(request.prompt().getOptions() instanceof ToolCallingChatOptions options)
				|| rest.stream().anyMatch(MemoryAdvisor.class::isInstance)) {
			return null;
		}
		ToolCallingChatOptions carrying = options.mutate().toolContext(PromptVerdict.KEY, verdict).build();
		return request.mutate().prompt(request.prompt().mutate().chatOptions(carrying).build()).build();
	}

	/**
	 * The model runs on the caller's thread while the prompt is screened on the scheduler; its answer is
	 * screened or discarded once the prompt's verdict is in. The blocking model call cannot be stopped
	 * from here, so a blocked prompt's answer is complete (its tokens spent) when it is discarded; its
	 * tools never run ({@link PromptVerdictToolCallingManager}).
	 */
	private ChatClientResponse parallelCall(ChatClientRequest request, ChatClientRequest early,
			PromptVerdict verdict, CallAdvisorChain chain) {
		CompletableFuture<Screened> prompt = screenAside(request, verdict);
		if (prompt.isDone() && verdictOf(prompt).refusal() != null) {
			// Screened before the model started (the scheduler refused the work): the model never starts.
			return Objects.requireNonNull(verdictOf(prompt).refusal());
		}
		ChatClientResponse response = null;
		RuntimeException failure = null;
		try {
			response = chain.nextCall(early);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		Screened screened = verdictOf(prompt);
		if (screened.refusal() != null) {
			return screened.refusal();
		}
		if (failure != null) {
			throw failure;
		}
		return screenAnswer(CALL, Objects.requireNonNull(response), screened.text()).response();
	}

	/**
	 * Screens the prompt on the starter's executor, deciding the verdict its tools wait for. When every
	 * thread of it is busy, the prompt is screened here and now, before the model starts: parallel
	 * screening falls back to serial rather than queue without bound.
	 */
	private CompletableFuture<Screened> screenAside(ChatClientRequest request, PromptVerdict verdict) {
		String text = promptText(request);
		return this.screening.screenAsync(promptRequest(CALL, request, text))
			.thenApply((decision) -> screened(request, text, decision))
			.whenComplete((screened, failure) -> verdict.decide(failure == null && screened.refusal() == null));
	}

	/** The prompt's screening, or the exception it ended with (the refusal's, with on-block throw). */
	private static Screened verdictOf(CompletableFuture<Screened> prompt) {
		try {
			return prompt.join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * The model's stream starts at once, while the prompt is screened on the scheduler; every signal of it
	 * (chunks, its end, its failure) is held until the prompt's verdict. A passed prompt releases them to
	 * the stream mode's screening; a blocked one cancels the model's stream and answers with the refusal.
	 */
	private Flux<ChatClientResponse> parallelStream(ChatClientRequest request, ChatClientRequest early,
			PromptVerdict verdict, StreamAdvisorChain chain) {
		String text = promptText(request);
		return Flux.defer(() -> {
			// Started from the scheduler: when every thread of the executor is busy, the prompt is screened on
			// the thread that starts it, which must not be the subscriber's (an event loop, perhaps).
			Mono<Screened> prompt = Mono
				.fromFuture(() -> this.screening.screenAsync(promptRequest(STREAM, request, text))
					.thenApply((decision) -> screened(request, text, decision)))
				.subscribeOn(this.scheduler)
				.flatMap((screened) -> (screened.refusal() != null)
						? Mono.<Screened>error(new RefusedPrompt(screened.refusal())) : Mono.just(screened))
				.doOnSuccess((screened) -> verdict.decide(true))
				.doFinally((signal) -> verdict.decide(false))
				.cache();
			// Only a pass releases what is held; a refusal reaches the caller once, through the merge.
			Mono<Screened> passed = prompt.onErrorResume((ex) -> Mono.never());
			Flux<ChatClientResponse> held = chain.nextStream(early)
				.materialize()
				.delayUntil((signal) -> passed)
				.<ChatClientResponse>dematerialize();
			Flux<ChatClientResponse> released = Flux.merge(prompt.then(Mono.<ChatClientResponse>empty()), held);
			return screenedStream(released, text, request.context())
				.onErrorResume(RefusedPrompt.class, (refused) -> Mono.just(refused.response));
		});
	}

	/**
	 * Windows of the answer are screened as it streams ({@link StreamWindows}); each step, a chunk or the
	 * end, runs on the scheduler, one at a time, so a cancelled stream starts no further screening.
	 */
	private Flux<ChatClientResponse> windowed(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return Flux.defer(() -> {
			StreamWindows windows = new StreamWindows(this.options.streamWindow(), this.options.streamOverlap(),
					(text) -> this.screening.screen(answerRequest(STREAM, text, prompt, true)),
					(toolCalls) -> screenToolCalls(toolCalls, prompt));
			return answer
				.concatMap((chunk) -> Mono.fromCallable(() -> windows.accept(chunk)).subscribeOn(this.scheduler))
				.concatWith(Mono.fromCallable(windows::finish).subscribeOn(this.scheduler))
				.takeUntil((step) -> step.refusal() != null)
				.concatMap((step) -> emit(step, context))
				.doFinally((signal) -> {
					if (logger.isDebugEnabled()) {
						logger.debug("Model Armor windowed stream: method=\"" + STREAM + "\" screenings="
								+ windows.screenings() + " signal=" + signal);
					}
				});
		});
	}

	private Flux<ChatClientResponse> emit(StreamWindows.Step step, Map<String, @Nullable Object> context) {
		Refusal refusal = step.refusal();
		Flux<ChatClientResponse> chunks = Flux.fromIterable(step.emit());
		if (refusal == null) {
			return chunks;
		}
		Map<String, @Nullable Object> last = step.emit().isEmpty() ? context
				: step.emit().get(step.emit().size() - 1).context();
		return chunks.concatWith(Mono.fromCallable(() -> refuseOrThrow(refusal, last)));
	}

	/**
	 * Screens the names and arguments of tool calls as model output: the caller may run them. They cannot be
	 * de-identified in place, so with {@link MatchAction#DEIDENTIFY} a match blocks.
	 */
	private ScreeningDecision screenToolCalls(String toolCalls, @Nullable String prompt) {
		return this.screening.screen(answerRequest(STREAM, toolCalls, prompt, false));
	}

	/** The refusal of the first chunk whose tool calls are refused, if any. */
	private @Nullable Answer refusedToolCalls(List<ChatClientResponse> chunks, @Nullable String prompt) {
		for (ChatClientResponse chunk : chunks) {
			String toolCalls = StreamWindows.toolCalls(chunk);
			if (!toolCalls.isBlank() && screenToolCalls(toolCalls, prompt) instanceof Refusal refusal) {
				return new Answer(refuseOrThrow(refusal, chunk.context()), false, true);
			}
		}
		return null;
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
		Answer answer = screenAnswer(STREAM, joined(chunks), prompt);
		if (answer.refused()) {
			return List.of(answer.response());
		}
		Answer toolCalls = refusedToolCalls(chunks, prompt);
		if (toolCalls != null) {
			return List.of(toolCalls.response());
		}
		return answer.rewritten() ? List.of(answer.response()) : chunks;
	}

	private Flux<ChatClientResponse> perChunk(Flux<ChatClientResponse> answer, @Nullable String prompt) {
		return answer
			.concatMap((chunk) -> Mono.fromCallable(() -> screenChunk(chunk, prompt)).subscribeOn(this.scheduler))
			.takeUntil(Answer::refused)
			.map(Answer::response);
	}

	private Answer screenChunk(ChatClientResponse chunk, @Nullable String prompt) {
		Answer answer = screenAnswer(STREAM, chunk, prompt);
		if (answer.refused()) {
			return answer;
		}
		Answer toolCalls = refusedToolCalls(List.of(chunk), prompt);
		return (toolCalls != null) ? toolCalls : answer;
	}

	/** The prompt: the text of every user message of the request, joined by a blank line. */
	private static String promptText(ChatClientRequest request) {
		return request.prompt()
			.getUserMessages()
			.stream()
			.map(UserMessage::getText)
			.filter((t) -> t != null && !t.isBlank())
			.collect(Collectors.joining(SEPARATOR));
	}

	private Screened screenPrompt(String caller, ChatClientRequest request) {
		String text = promptText(request);
		if (text.isBlank()) {
			return new Screened(request, null, null);
		}
		return screened(request, text, this.screening.screen(promptRequest(caller, request, text)));
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
			return new Screened(request, text, refuseOrThrow(refusal, request.context()));
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
	private Answer screenAnswer(String caller, ChatClientResponse response, @Nullable String prompt) {
		List<Generation> generations = generations(response);
		List<Generation> screened = new ArrayList<>(generations);
		boolean rewritten = false;
		for (int i = 0; i < generations.size(); i++) {
			Generation generation = generations.get(i);
			String text = text(generation);
			if (text.isBlank()) {
				continue;
			}
			ScreeningDecision decision = this.screening.screen(answerRequest(caller, text, prompt, true));
			if (decision instanceof Refusal refusal) {
				return new Answer(refuseOrThrow(refusal, response.context()), false, true);
			}
			if (decision instanceof Deidentified deidentified) {
				screened.set(i, withText(generation, deidentified.text()));
				rewritten = true;
			}
		}
		return rewritten ? new Answer(withGenerations(response, screened), true, false)
				: new Answer(response, false, false);
	}

	private ScreeningRequest answerRequest(String caller, String text, @Nullable String prompt, boolean replaceable) {
		return ScreeningRequest.response(caller, text, prompt)
			.withTemplate(this.template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(replaceable);
	}

	/** The one place where a refusal becomes the advisor's answer: the refusal, or its exception. */
	private ChatClientResponse refuseOrThrow(Refusal refusal, Map<String, @Nullable Object> context) {
		if (this.options.onBlock() == OnBlock.THROW) {
			throw refusal.exception();
		}
		String phase = refusal.phase().name().toLowerCase(Locale.ROOT);
		String reason = (refusal instanceof Blocked) ? MATCHED
				: (refusal instanceof Rejected) ? INPUT_REJECTED : NOT_SCREENED;
		Set<String> filters = (refusal instanceof Blocked blocked) ? Set.copyOf(blocked.result().matchedFilters())
				: Set.of();
		ChatGenerationMetadata generationMetadata = ChatGenerationMetadata.builder()
			.finishReason(FINISH_REASON)
			.contentFilters(filters)
			.build();
		ChatResponseMetadata metadata = ChatResponseMetadata.builder()
			.keyValue(BLOCKED, Boolean.TRUE)
			.keyValue(PHASE, phase)
			.keyValue(REASON, reason)
			.keyValue(FILTERS, filters)
			.build();
		ChatResponse chatResponse = ChatResponse.builder()
			.generations(List.of(new Generation(new AssistantMessage(this.options.refusal()), generationMetadata)))
			.metadata(metadata)
			.build();
		return ChatClientResponse.builder()
			.chatResponse(chatResponse)
			.context(context)
			.context(BLOCKED, Boolean.TRUE)
			.context(PHASE, phase)
			.context(REASON, reason)
			.context(FILTERS, filters)
			.build();
	}

	/** The generations of a response, none when it has no chat response. */
	static List<Generation> generations(ChatClientResponse response) {
		ChatResponse chatResponse = response.chatResponse();
		return (chatResponse != null) ? chatResponse.getResults() : List.of();
	}

	/** The text of a generation, empty when it has none. */
	static String text(Generation generation) {
		AssistantMessage output = generation.getOutput();
		String text = (output != null) ? output.getText() : null;
		return (text != null) ? text : "";
	}

	/**
	 * A buffered stream as one response: generation {@code i} has the text of every chunk's generation
	 * {@code i}, in order, and the rest (metadata, tool calls) of the last chunk that had one; the
	 * response is the last chunk's.
	 */
	private static ChatClientResponse joined(List<ChatClientResponse> chunks) {
		List<StringBuilder> texts = new ArrayList<>();
		List<Generation> latest = new ArrayList<>();
		for (ChatClientResponse chunk : chunks) {
			List<Generation> generations = generations(chunk);
			for (int i = 0; i < generations.size(); i++) {
				if (i == texts.size()) {
					texts.add(new StringBuilder());
					latest.add(generations.get(i));
				}
				texts.get(i).append(text(generations.get(i)));
				latest.set(i, generations.get(i));
			}
		}
		List<Generation> joined = new ArrayList<>(texts.size());
		for (int i = 0; i < texts.size(); i++) {
			joined.add(withText(latest.get(i), texts.get(i).toString()));
		}
		return withGenerations(chunks.get(chunks.size() - 1), joined);
	}

	static Generation withText(Generation generation, String text) {
		AssistantMessage output = generation.getOutput();
		AssistantMessage rewritten = (output != null) ? output.mutate().content(text).build() : new AssistantMessage(text);
		return new Generation(rewritten, generation.getMetadata());
	}

	static ChatClientResponse withGenerations(ChatClientResponse response, List<Generation> generations) {
		ChatResponse chatResponse = response.chatResponse();
		ChatResponse.Builder builder = (chatResponse != null) ? ChatResponse.builder().from(chatResponse)
				: ChatResponse.builder();
		return response.mutate().chatResponse(builder.generations(generations).build()).build();
	}

	/**
	 * The prompt side decided: the request to go on with and the prompt text the answer is screened
	 * against, or the refusal to answer with.
	 */
	private record Screened(ChatClientRequest request, @Nullable String text, @Nullable ChatClientResponse refusal) {
	}

	/**
	 * A screened answer, or chunk of a stream: the response to go on with, whether it was rewritten with
	 * de-identified text, and whether it is the refusal (which ends a stream).
	 */
	private record Answer(ChatClientResponse response, boolean rewritten, boolean refused) {
	}

	/**
	 * A prompt refused while its model call ran: ends the held stream, cancelling the model's, and is
	 * turned into the refusal before it reaches the caller. Carries no content.
	 */
	private static final class RefusedPrompt extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final transient ChatClientResponse response;

		RefusedPrompt(ChatClientResponse response) {
			super("prompt refused", null, false, false);
			this.response = response;
		}

	}

}
