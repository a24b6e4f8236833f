package dev.modelarmor.ai;

import java.util.List;
import java.util.Map;

import dev.modelarmor.ai.AdvisorScreening.Answer;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * {@link ModelArmorAdvisorOptions.StreamMode#BUFFERED}: the whole answer is collected and screened (generation
 * {@code i} being the text of every chunk's generation {@code i}), with every chunk's tool calls, before
 * any of it is emitted.
 */
final class BufferedStreamScreening implements StreamScreening {

	private final AdvisorScreening screening;

	private final Scheduler scheduler;

	BufferedStreamScreening(AdvisorScreening screening, Scheduler scheduler) {
		this.screening = screening;
		this.scheduler = scheduler;
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return answer.collectList().flatMapMany((chunks) -> {
			if (chunks.isEmpty()) {
				return Flux.empty();
			}
			return Mono.fromCallable(() -> screenAll(chunks, prompt))
				.subscribeOn(this.scheduler)
				.flatMapMany(Flux::fromIterable);
		});
	}

	private List<ChatClientResponse> screenAll(List<ChatClientResponse> chunks, @Nullable String prompt) {
		Answer answer = this.screening.screenAnswer(ModelArmorAdvisor.STREAM, ChatResponses.joined(chunks), prompt);
		if (answer.refused()) {
			return List.of(answer.response());
		}
		Answer toolCalls = this.screening.refusedToolCalls(ModelArmorAdvisor.STREAM, chunks, prompt);
		if (toolCalls != null) {
			return List.of(toolCalls.response());
		}
		return answer.rewritten() ? List.of(answer.response()) : chunks;
	}

}
