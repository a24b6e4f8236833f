package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * {@link ModelArmorAdvisorOptions.StreamMode#BUFFERED}: the whole answer is collected and screened (generation
 * {@code i} being the text of every chunk's generation {@code i}), with every chunk's tool calls, before
 * any of it is emitted, no thread waiting for a screening.
 */
final class BufferedStreamScreening implements StreamScreening {

	private final StreamAnswers answers;

	BufferedStreamScreening(AdvisorScreening screening) {
		this.answers = new StreamAnswers(screening);
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return answer.collectList().flatMapMany((chunks) -> {
			if (chunks.isEmpty()) {
				return Flux.empty();
			}
			return this.answers.screen(ChatResponses.joined(chunks), chunks, prompt)
				.flatMapIterable((screened) -> (screened.refused() || screened.rewritten())
						? List.of(screened.response()) : chunks);
		});
	}

}
