package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * The advisor's windows ({@link dev.modelarmor.screening.internal.stream.StreamSegments} over {@link ChatChunks}) with
 * screenings that decide at once, step by step, for the tests of where windows cut and what they emit.
 */
final class AdvisorSegments {

	private final dev.modelarmor.screening.internal.stream.StreamSegments<ChatClientResponse> windows;

	AdvisorSegments(int window, int overlap, Function<String, ScreeningDecision> screenText,
			Function<String, ScreeningDecision> screenToolCalls) {
		this.windows = new dev.modelarmor.screening.internal.stream.StreamSegments<>(window, overlap, ChatChunks.INSTANCE,
				(text) -> CompletableFuture.completedFuture(screenText.apply(text)),
				(text) -> CompletableFuture.completedFuture(screenToolCalls.apply(text)));
	}

	Step accept(ChatClientResponse chunk) {
		return step(this.windows.accept(chunk));
	}

	Step finish() {
		return step(this.windows.finish());
	}

	int screenings() {
		return this.windows.screenings();
	}

	private static Step step(CompletableFuture<dev.modelarmor.screening.internal.stream.StreamSegments.Step<ChatClientResponse>> step) {
		// the screenings decide at once, so the step is complete
		dev.modelarmor.screening.internal.stream.StreamSegments.Step<ChatClientResponse> done = step.getNow(null);
		if (done == null) {
			throw new IllegalStateException("the step did not complete at once");
		}
		return new Step(done.emit(), done.refusal());
	}

	record Step(List<ChatClientResponse> emit, @Nullable Refusal refusal) {
	}

}
