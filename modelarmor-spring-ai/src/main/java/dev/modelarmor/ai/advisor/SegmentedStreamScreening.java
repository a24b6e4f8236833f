package dev.modelarmor.ai.advisor;

import java.util.Map;

import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.internal.stream.StreamSegments;
import dev.modelarmor.screening.internal.stream.StreamSegmentsFlux;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * {@link ModelArmorAdvisorOptions.StreamMode#SEGMENTED}: segments of the answer are screened as it streams
 * ({@link StreamSegments}, shared with {@code @ModelArmorGuarded} methods that return a {@code Flux}), each
 * chunk held back until the segment that holds it has passed. Each step, a chunk or the end, waits for the
 * previous one without a thread waiting for Model Armor, so a cancelled stream cancels the screening in
 * flight and starts no further one.
 */
final class SegmentedStreamScreening implements StreamScreening {

	// The advisor's category, as before the strategies were split out of it.
	private static final Log logger = LogFactory.getLog(ModelArmorAdvisor.class);

	private final AdvisorScreening screening;

	SegmentedStreamScreening(AdvisorScreening screening) {
		this.screening = screening;
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return Flux.defer(() -> {
			ModelArmorAdvisorOptions options = this.screening.options();
			StreamSegments<ChatClientResponse> segments = new StreamSegments<>(options.streamSegment(),
					options.streamOverlap(), ChatChunks.INSTANCE,
					(text) -> this.screening.screenAnswerTextAsync(ModelArmorAdvisor.STREAM, text, prompt),
					(toolCalls) -> this.screening.screenToolCallsAsync(ModelArmorAdvisor.STREAM, toolCalls, prompt));
			return StreamSegmentsFlux.steps(answer, segments)
				.concatMap((step) -> emit(step, context))
				.doFinally((signal) -> {
					if (logger.isDebugEnabled()) {
						logger.debug("Model Armor segmented stream: method=\"" + ModelArmorAdvisor.STREAM
								+ "\" screenings=" + segments.screenings() + " signal=" + signal);
					}
				});
		});
	}

	private Flux<ChatClientResponse> emit(StreamSegments.Step<ChatClientResponse> step,
			Map<String, @Nullable Object> context) {
		Refusal refusal = step.refusal();
		Flux<ChatClientResponse> chunks = Flux.fromIterable(step.emit());
		if (refusal == null) {
			return chunks;
		}
		Map<String, @Nullable Object> last = step.emit().isEmpty() ? context
				: step.emit().get(step.emit().size() - 1).context();
		return chunks.concatWith(Mono.fromCallable(() -> this.screening.refuseOrThrow(refusal, last)));
	}

}
