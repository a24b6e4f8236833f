package dev.modelarmor.screening.internal.stream;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.screening.internal.stream.StreamSegments.Step;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A stream screened in {@link StreamSegments}, as Reactor steps: each chunk, then the end, is handed to the
 * segments once the previous step completed, without a thread waiting for a screening; the steps end with
 * the first refusal. Cancelling, or the source failing, cancels the screening in flight. Used only where
 * Reactor is on the class path.
 */
public final class StreamSegmentsFlux {

	private StreamSegmentsFlux() {
	}

	/**
	 * The steps of a stream.
	 * @param <C> the type of the chunks
	 * @param source the stream, subscribed to once
	 * @param segments the segments of this one subscription
	 * @return the steps, the last one holding the refusal if any
	 */
	public static <C> Flux<Step<C>> steps(Flux<C> source, StreamSegments<C> segments) {
		return source.concatMap((chunk) -> step(() -> segments.accept(chunk)))
			.concatWith(step(segments::finish))
			.takeUntil((step) -> step.refusal() != null)
			.doFinally((signal) -> segments.cancel());
	}

	private static <C> Mono<Step<C>> step(Supplier<CompletableFuture<Step<C>>> step) {
		return Mono.fromFuture(step, false);
	}

}
