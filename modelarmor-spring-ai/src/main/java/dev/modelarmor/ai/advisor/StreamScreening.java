package dev.modelarmor.ai.advisor;

import java.util.Map;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.StreamMode;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * How a streamed answer is screened before the caller sees it: one implementation per {@link StreamMode},
 * chosen once per advisor, so that the stream path (serial or parallel prompt screening) does not know
 * which mode it runs.
 */
interface StreamScreening {

	/**
	 * The answer as the caller may see it: screened, rewritten or ended by the refusal.
	 * @param answer the model's stream
	 * @param prompt the (possibly de-identified) prompt text the answer is screened against
	 * @param context the request's advisor context, for a refusal before any chunk
	 * @return the screened stream
	 */
	Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context);

	/** The strategy of the advisor's stream mode; no thread waits for its Model Armor calls. */
	static StreamScreening of(AdvisorScreening screening) {
		return switch (screening.options().streamMode()) {
			case BUFFERED -> new BufferedStreamScreening(screening);
			case PER_CHUNK -> new PerChunkStreamScreening(screening);
			case SEGMENTED -> new SegmentedStreamScreening(screening);
		};
	}

}
