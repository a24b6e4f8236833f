package dev.modelarmor.screening.internal.stream;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.internal.stream.StreamSegments.Step;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StreamSegmentsFlux}: a step waits for its screening's future without a thread, and cancelling the
 * stream, or its source failing, cancels the screening in flight.
 */
class StreamSegmentsFluxTests {

	private final List<CompletableFuture<ScreeningDecision>> calls = new CopyOnWriteArrayList<>();

	private final StreamSegments<String> windows = new StreamSegments<>(8, 2, new Text(), this::screen, this::screen);

	private CompletableFuture<ScreeningDecision> screen(String text) {
		CompletableFuture<ScreeningDecision> call = new CompletableFuture<>();
		this.calls.add(call);
		return call;
	}

	@Test
	void nothingIsEmittedUntilTheWindowsScreeningCompletes() {
		Sinks.Many<String> source = Sinks.many().unicast().onBackpressureBuffer();
		StepVerifier.create(StreamSegmentsFlux.steps(source.asFlux(), this.windows).flatMapIterable(Step::emit))
			.then(() -> source.tryEmitNext("abcdefghij"))
			.expectNoEvent(Duration.ofMillis(100))
			.then(() -> this.calls.get(0).complete(ScreeningDecision.PASS))
			.then(source::tryEmitComplete)
			.expectNext("abcdefghij")
			.verifyComplete();
		// the window held all of it, so the end screens nothing again
		assertThat(this.calls).hasSize(1);
	}

	@Test
	void cancellingTheStreamCancelsTheScreeningInFlight() {
		StepVerifier.create(StreamSegmentsFlux.steps(Flux.just("abcdefghij"), this.windows))
			.then(() -> assertThat(this.calls).hasSize(1))
			.thenCancel()
			.verify();
		assertThat(this.calls.get(0)).isCancelled();
	}

	@Test
	void aFailingSourceCancelsTheScreeningInFlight() {
		Sinks.Many<String> source = Sinks.many().unicast().onBackpressureBuffer();
		StepVerifier.create(StreamSegmentsFlux.steps(source.asFlux(), this.windows))
			.then(() -> source.tryEmitNext("abcdefghij"))
			.then(() -> source.tryEmitError(new IllegalStateException("model down")))
			.verifyErrorMessage("model down");
		assertThat(this.calls.get(0)).isCancelled();
	}

	/** Plain text chunks. */
	private static final class Text implements StreamSegments.Chunks<String> {

		@Override
		public List<String> texts(String chunk) {
			return List.of(chunk);
		}

		@Override
		public String withTexts(String chunk, List<@Nullable String> texts) {
			String text = texts.get(0);
			return (text != null) ? text : chunk;
		}

	}

}
