package dev.modelarmor.ai;

import java.util.Map;

import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * {@link ModelArmorAdvisorOptions.StreamMode#WINDOWED}: windows of the answer are screened as it streams
 * ({@link StreamWindows}), each chunk held back until the window that holds it has passed. Each step, a
 * chunk or the end, runs on the scheduler, one at a time, so a cancelled stream starts no further
 * screening.
 */
final class WindowedStreamScreening implements StreamScreening {

	// The advisor's category, as before the strategies were split out of it.
	private static final Log logger = LogFactory.getLog(ModelArmorAdvisor.class);

	private final AdvisorScreening screening;

	private final Scheduler scheduler;

	WindowedStreamScreening(AdvisorScreening screening, Scheduler scheduler) {
		this.screening = screening;
		this.scheduler = scheduler;
	}

	@Override
	public Flux<ChatClientResponse> screen(Flux<ChatClientResponse> answer, @Nullable String prompt,
			Map<String, @Nullable Object> context) {
		return Flux.defer(() -> {
			ModelArmorAdvisorOptions options = this.screening.options();
			StreamWindows windows = new StreamWindows(options.streamWindow(), options.streamOverlap(),
					(text) -> this.screening.screenAnswerText(ModelArmorAdvisor.STREAM, text, prompt),
					(toolCalls) -> this.screening.screenToolCalls(ModelArmorAdvisor.STREAM, toolCalls, prompt));
			return answer
				.concatMap((chunk) -> Mono.fromCallable(() -> windows.accept(chunk)).subscribeOn(this.scheduler))
				.concatWith(Mono.fromCallable(windows::finish).subscribeOn(this.scheduler))
				.takeUntil((step) -> step.refusal() != null)
				.concatMap((step) -> emit(step, context))
				.doFinally((signal) -> {
					if (logger.isDebugEnabled()) {
						logger.debug("Model Armor windowed stream: method=\"" + ModelArmorAdvisor.STREAM
								+ "\" screenings=" + windows.screenings() + " signal=" + signal);
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
		return chunks.concatWith(Mono.fromCallable(() -> this.screening.refuseOrThrow(refusal, last)));
	}

}
