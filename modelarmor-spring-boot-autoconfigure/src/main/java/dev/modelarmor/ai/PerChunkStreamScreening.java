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
 * {@link ModelArmorAdvisorOptions.StreamMode#PER_CHUNK}: each chunk's generations and tool calls are
 * screened as they come, one chunk at a time; the first refusal ends the stream.
 */
final class PerChunkStreamScreening implements StreamScreening {

	private final AdvisorScreening screening;

	private final Scheduler scheduler;

	PerChunkStreamScreening(AdvisorScreening screening, Scheduler scheduler) {
		this.screening = screening;
		this.scheduler = scheduler;
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return answer
			.concatMap((chunk) -> Mono.fromCallable(() -> screenChunk(chunk, prompt)).subscribeOn(this.scheduler))
			.takeUntil(Answer::refused)
			.map(Answer::response);
	}

	private Answer screenChunk(ChatClientResponse chunk, @Nullable String prompt) {
		Answer answer = this.screening.screenAnswer(ModelArmorAdvisor.STREAM, chunk, prompt);
		if (answer.refused()) {
			return answer;
		}
		Answer toolCalls = this.screening.refusedToolCalls(ModelArmorAdvisor.STREAM, List.of(chunk), prompt);
		return (toolCalls != null) ? toolCalls : answer;
	}

}
