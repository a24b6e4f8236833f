package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * When a guarded method gives its answer: as its return value, or later, through a
 * {@link CompletableFuture} (or {@link CompletionStage}), a Reactor {@code Mono} or a {@code Flux}, a Kotlin
 * {@code Flow}, or as a Kotlin {@code suspend} function (which Spring's proxies run as a {@code Mono}, or a
 * {@code Flux} when it returns a {@code Flow}). A method
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
	FLUX,

	/** A Kotlin {@code Flow} of the answer's parts, screened in windows as a {@code Flux} is. */
	FLOW;

	/** The class Spring's AOP proxies look for, with Kotlin, to run suspending functions as publishers. */
	static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
			ReturnShape.class.getClassLoader());

	private static final String FLOW_TYPE = "kotlinx.coroutines.flow.Flow";

	static ReturnShape of(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			// Spring's proxies run a suspending function as a Mono, or a Flux when it returns a Flow, and await
			// what the interceptors return: the guard sees a method that answers later.
			return isFlow(new MethodParameter(method, -1).getParameterType()) ? FLUX : MONO;
		}
		Class<?> type = method.getReturnType();
		if (isFlow(type)) {
			return FLOW;
		}
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

	private static boolean isFlow(Class<?> type) {
		return type.getName().equals(FLOW_TYPE);
	}

}
