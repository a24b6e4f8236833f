package dev.modelarmor.ai.advisor;

import java.util.Objects;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.StreamMode;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.ScreeningObserver;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;

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
 * be de-identified blocks. Each media of the user messages is screened too, each its own call, at the same
 * time as the text (images as images, documents as their type; see {@code docs/screened-inputs.md}); media
 * Model Armor cannot screen, or given by URL, is blocked unless
 * {@code modelarmor.screening.unscreenable-media=allow}.
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
 * <p><strong>Streaming</strong> follows {@link StreamMode}: {@code SEGMENTED} (the default) holds the answer
 * back until the segment of text that holds it has been screened, segments overlapping so that a match
 * across chunks is found before any of it is emitted ({@link dev.modelarmor.screening.internal.stream.StreamSegments}); {@code BUFFERED} screens
 * the whole answer before any of it is emitted (generation {@code i} being the text of every chunk's
 * generation {@code i}); {@code PER_CHUNK} screens each chunk's generations as they come. In every mode
 * the names and arguments of a chunk's tool calls are screened as model output before the chunk is
 * emitted: the caller may run them. No thread waits for a stream's Model Armor calls or retry waits
 * ({@link ModelArmorScreening#screenAsync(ScreeningRequest)}), and cancelling a stream cancels them.
 *
 * <p><strong>Parallel prompt screening</strong> ({@link ModelArmorAdvisorOptions#parallelPromptScreening()},
 * off by default) starts the rest of the chain, and so the model, while the prompt is being screened
 * ({@link ModelArmorScreening#screenAsync(ScreeningRequest)}, on the starter's executor): the answer is released (or streamed) only after the prompt's verdict, and discarded when the
 * prompt is blocked (a stream is cancelled; a blocking call runs to its end, its tokens spent). Tool calls
 * wait for the verdict in {@link PromptVerdictToolCallingManager}, which the verdict reaches through the
 * prompt's tool context, and never run for a blocked prompt. A request whose options cannot carry it (not
 * {@code ToolCallingChatOptions}), or a chain with a chat memory advisor, which would remember the prompt
 * before its verdict, is screened first as without the option.
 *
 * <p>The advisor only orchestrates, as Spring AI's {@code RetrievalAugmentationAdvisor} does: the blocking
 * path is {@code AdvisorCallPath}, the streaming path {@code AdvisorStreamPath} with one
 * {@code StreamScreening} per stream mode, what is screened and what a decision means
 * {@code AdvisorScreening}, and the refused answer {@code AdvisorRefusals} (all package-private).
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

	private static final String NAME = "ModelArmorAdvisor";

	/** The caller named in the screenings of {@code adviseCall}. */
	static final String CALL = NAME + ".adviseCall";

	/** The caller named in the screenings of {@code adviseStream}. */
	static final String STREAM = NAME + ".adviseStream";

	private final ModelArmorAdvisorOptions options;

	private final AdvisorCallPath callPath;

	private final AdvisorStreamPath streamPath;

	private final AdvisorScreening exchange;

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
		Objects.requireNonNull(screening, "screening");
		this.options = Objects.requireNonNull(options, "options");
		AdvisorScreening exchange = new AdvisorScreening(screening, template, options);
		this.exchange = exchange;
		this.callPath = new AdvisorCallPath(exchange);
		this.streamPath = new AdvisorStreamPath(exchange);
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
		AdvisorScreening.ForExchange bound = this.exchange.forExchange(CALL, request.context(),
				ModelArmorTenant.of(request.context()));
		if (bound.refusal() != null) {
			return bound.refusal();
		}
		return (bound.screening() == this.exchange) ? this.callPath.advise(request, chain)
				: new AdvisorCallPath(bound.screening()).advise(request, chain);
	}

	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		return Flux.deferContextual((subscriber) -> {
			String tenant = ModelArmorTenant.of(request.context());
			Object fromSubscriber = subscriber.getOrDefault(ModelArmorTenant.KEY, null);
			if (request.context().get(ModelArmorTenant.KEY) == null && fromSubscriber != null) {
				tenant = fromSubscriber.toString();
			}
			AdvisorScreening.ForExchange bound = this.exchange.forExchange(STREAM, request.context(), tenant);
			if (bound.refusal() != null) {
				return Flux.just(bound.refusal());
			}
			return (bound.screening() == this.exchange) ? this.streamPath.advise(request, chain)
					: new AdvisorStreamPath(bound.screening()).advise(request, chain);
		});
	}

}
