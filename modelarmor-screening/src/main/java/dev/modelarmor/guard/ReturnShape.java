package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * When a guarded method gives its answer: as its return value, or later, through a
 * {@link CompletableFuture} (or {@link CompletionStage}), a Reactor {@code Mono} or a {@code Flux}. A method
 * that answers later is screened without a thread waiting: its prompt before its body runs, its answer
 * before it reaches the subscriber.
 */
enum ReturnShape {

	/** The answer is the return value. */
	VALUE,

	/** A {@code CompletableFuture} or {@code CompletionStage} of the answer. */
	FUTURE,

	/** A {@code Mono} of the answer. */
	MONO,

	/** A {@code Flux} of the answer's parts, screened in windows. */
	FLUX;

	static ReturnShape of(Method method) {
		Class<?> type = method.getReturnType();
		if (type == CompletableFuture.class || type == CompletionStage.class) {
			return FUTURE;
		}
		// By name: Reactor is optional, and a method that returns one has it on its class path.
		return switch (type.getName()) {
			case "reactor.core.publisher.Mono" -> MONO;
			case "reactor.core.publisher.Flux" -> FLUX;
			default -> VALUE;
		};
	}

}
