package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.Map;

import dev.modelarmor.ai.advisor.AdvisorScreening.Answer;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * {@link ModelArmorAdvisorOptions.StreamMode#PER_CHUNK}: each chunk's generations and tool calls are
 * screened as they come, one chunk at a time, no thread waiting for a screening; the first refusal ends
 * the stream.
 */
final class PerChunkStreamScreening implements StreamScreening {

	private final StreamAnswers answers;

	PerChunkStreamScreening(AdvisorScreening screening) {
		this.answers = new StreamAnswers(screening);
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return answer.concatMap((chunk) -> this.answers.screen(chunk, List.of(chunk), prompt))
			.takeUntil(Answer::refused)
			.map(Answer::response);
	}

}
