package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.ai.advisor.AdvisorScreening.Answer;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * The answer screenings of {@link AdvisorScreening} for streams, without a thread waiting for Model
 * Armor: each generation of a response on its own, then its chunks' tool calls, one screening after the
 * other. Each is a {@code Mono} whose cancellation cancels the screening in flight.
 */
final class StreamAnswers {

	private final AdvisorScreening screening;

	StreamAnswers(AdvisorScreening screening) {
		this.screening = screening;
	}

	/**
	 * Screens a response's generations, then its chunks' tool calls: the response to emit (perhaps
	 * rewritten), or the refusal.
	 * @param response the response to screen (a chunk, or a buffered stream joined)
	 * @param chunks the chunks whose tool calls are screened
	 * @param prompt the prompt text the answer is screened against
	 * @return the answer
	 */
	Mono<Answer> screen(ChatClientResponse response, List<ChatClientResponse> chunks, @Nullable String prompt) {
		return generations(response, prompt, 0, new ArrayList<>(ChatResponses.generations(response)), false)
			.flatMap((answer) -> answer.refused() ? Mono.just(answer) : toolCalls(chunks, prompt, 0)
				.defaultIfEmpty(answer));
	}

	private Mono<Answer> generations(ChatClientResponse response, @Nullable String prompt, int from,
			List<Generation> screened, boolean rewritten) {
		int i = from;
		while (i < screened.size() && ChatResponses.text(screened.get(i)).isBlank()) {
			i++;
		}
		if (i >= screened.size()) {
			return Mono.just(rewritten ? new Answer(ChatResponses.withGenerations(response, screened), true, false)
					: new Answer(response, false, false));
		}
		int g = i;
		Generation generation = screened.get(g);
		return decided(() -> this.screening.screenAnswerTextAsync(ModelArmorAdvisor.STREAM,
				ChatResponses.text(generation), prompt))
			.flatMap((decision) -> {
				if (decision instanceof Refusal refusal) {
					return Mono.fromCallable(() -> new Answer(this.screening.refuseOrThrow(refusal, response.context()),
							false, true));
				}
				boolean changed = decision instanceof Deidentified;
				if (decision instanceof Deidentified deidentified) {
					screened.set(g, ChatResponses.withText(generation, deidentified.text()));
				}
				return generations(response, prompt, g + 1, screened, rewritten || changed);
			});
	}

	/** The refusal of the first chunk whose tool calls are refused; empty when none is. */
	private Mono<Answer> toolCalls(List<ChatClientResponse> chunks, @Nullable String prompt, int from) {
		int k = from;
		while (k < chunks.size() && ChatChunks.toolCallsOf(chunks.get(k)).isBlank()) {
			k++;
		}
		if (k >= chunks.size()) {
			return Mono.empty();
		}
		ChatClientResponse chunk = chunks.get(k);
		int next = k + 1;
		return decided(() -> this.screening.screenToolCallsAsync(ModelArmorAdvisor.STREAM,
				ChatChunks.toolCallsOf(chunk), prompt))
			.flatMap((decision) -> (decision instanceof Refusal refusal)
					? Mono.fromCallable(() -> new Answer(this.screening.refuseOrThrow(refusal, chunk.context()), false, true))
					: toolCalls(chunks, prompt, next));
	}

	private static <T> Mono<T> decided(Supplier<CompletableFuture<T>> screening) {
		return Mono.fromFuture(screening, false);
	}

}
