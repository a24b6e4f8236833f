package dev.modelarmor.guard;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.internal.stream.StreamSegments;
import dev.modelarmor.screening.internal.stream.StreamSegmentsFlux;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * A guarded method that returns a Reactor {@link Mono} or {@link Flux}: what it returns is assembled at
 * once and does nothing until subscribed to; then the prompt is screened, and only once it passed is the
 * body run and its publisher subscribed to. A {@code Mono}'s answer is screened before it reaches the
 * subscriber; a {@code Flux} is screened in {@link StreamSegments}, as the Spring AI advisor's segmented
 * stream mode screens, nothing emitted before the segment that holds it passed. Every refusal is an error
 * signal, and cancelling cancels the screening in flight. A
 * {@link ModelArmorGuarded#sideEffectFree() side-effect-free} method's publisher is subscribed to at once,
 * every signal of it held until the prompt's verdict. Loaded only for such methods, so only when Reactor is
 * on the class path.
 */
final class ReactiveGuard {

	/** The UTF-8 bytes of a segment held back for the next one, a quarter of it, as the advisor's. */
	private static final int OVERLAP = StreamSegments.DEFAULT_SEGMENT / 4;

	private ReactiveGuard() {
	}

	static Mono<Object> mono(GuardedCall subscribed) {
		return Mono.deferContextual((context) -> {
			GuardedCall call = subscribed.forTenant(tenant(context));
			String prompt = call.prompt();
			if (prompt != null && call.guarded().parallel()) {
				Mono<ScreeningDecision> verdict = verdict(call, prompt);
				return Flux.merge(verdict.then(Mono.empty()), held(monoBody(call).flux(), verdict))
					.singleOrEmpty()
					.flatMap((value) -> screenAnswer(call, value, prompt));
			}
			return screenedPrompt(call, prompt).flatMap((screened) -> monoBody(call)
				.flatMap((value) -> screenAnswer(call, value, screened.orElse(null))));
		});
	}

	static Flux<Object> flux(GuardedCall subscribed) {
		return Flux.deferContextual((context) -> {
			GuardedCall call = subscribed.forTenant(tenant(context));
			String prompt = call.prompt();
			if (prompt != null && call.guarded().parallel()) {
				Mono<ScreeningDecision> verdict = verdict(call, prompt);
				return segments(call, Flux.merge(verdict.then(Mono.empty()), held(fluxBody(call), verdict)), prompt);
			}
			return screenedPrompt(call, prompt).flatMapMany((screened) -> segments(call, fluxBody(call),
					screened.orElse(null)));
		});
	}

	/** The tenant a subscriber's context names ({@link ModelArmorTenant#KEY}), or {@code null}. */
	private static @Nullable String tenant(ContextView context) {
		Object tenant = context.getOrDefault(ModelArmorTenant.KEY, null);
		return (tenant != null) ? tenant.toString() : null;
	}

	/**
	 * A method that returns a Kotlin {@code Flow}: guarded as a {@code Flux}, and handed back as a {@code Flow}
	 * through Spring's adapter, which Kotlin's coroutines-reactor library registers.
	 */
	static Object flow(GuardedCall call) {
		ReactiveAdapter adapter = Objects.requireNonNull(
				ReactiveAdapterRegistry.getSharedInstance().getAdapter(call.method().getReturnType()),
				"the interceptor checked the Flow adapter");
		return adapter.fromPublisher(flux(call));
	}

	/** The prompt to go on with (de-identified perhaps, empty when none is screened), or the refusal. */
	private static Mono<Optional<String>> screenedPrompt(GuardedCall call, @Nullable String prompt) {
		if (prompt == null) {
			return Mono.just(Optional.empty());
		}
		return decided(() -> call.screenPrompt(prompt, call.promptReplaceable())).map((decision) -> {
			if (decision instanceof Deidentified deidentified) {
				call.replacePrompt(deidentified.text());
				return Optional.of(deidentified.text());
			}
			return Optional.of(prompt);
		});
	}

	/**
	 * The prompt's verdict while the body runs, screened once: a pass, or the refusal as an error, which ends
	 * the merge and so cancels the body's publisher.
	 */
	private static Mono<ScreeningDecision> verdict(GuardedCall call, String prompt) {
		return decided(() -> call.screenPrompt(prompt, false)).cache();
	}

	/** Every signal of the body's publisher, held until the prompt passed; never released when it did not. */
	private static <T> Flux<T> held(Flux<T> body, Mono<ScreeningDecision> verdict) {
		Mono<ScreeningDecision> passed = verdict.onErrorResume((ex) -> Mono.never());
		return body.materialize().delayUntil((signal) -> passed).dematerialize();
	}

	private static Mono<Object> screenAnswer(GuardedCall call, Object value, @Nullable String prompt) {
		String text = call.answer(value);
		if (text == null) {
			return Mono.just(value);
		}
		return decided(() -> call.screenAnswer(text, prompt)).map((decision) -> (decision instanceof Deidentified
				deidentified) ? call.replaceAnswer(deidentified.text()) : value);
	}

	private static Flux<Object> segments(GuardedCall call, Flux<Object> body, @Nullable String prompt) {
		if (call.guarded().response() == null) {
			return body;
		}
		StreamSegments<Object> segments = new StreamSegments<>(StreamSegments.DEFAULT_SEGMENT, OVERLAP, new Elements(call),
				(text) -> call.screenAnswer(text, prompt),
				(none) -> CompletableFuture.completedFuture(ScreeningDecision.PASS));
		return StreamSegmentsFlux.steps(body, segments).concatMap((step) -> {
			Flux<Object> emit = Flux.fromIterable(step.emit());
			Refusal refusal = step.refusal();
			return (refusal != null) ? emit.concatWith(Mono.error(refusal::exception)) : emit;
		});
	}

	/** A screening's decision as a signal: the refusal as its exception. Cancelling cancels the screening. */
	private static Mono<ScreeningDecision> decided(
			Supplier<CompletableFuture<ScreeningDecision>> screening) {
		return Mono.fromFuture(screening, false)
			.flatMap((decision) -> (decision instanceof Refusal refusal) ? Mono.error(refusal.exception())
					: Mono.just(decision));
	}

	/** The body, run when subscribed to; what it throws is an error signal. */
	@SuppressWarnings("unchecked")
	private static Mono<Object> monoBody(GuardedCall call) {
		return Mono.defer(() -> {
			try {
				return (call.proceed() instanceof Mono<?> mono) ? (Mono<Object>) mono : Mono.error(nothing(call));
			}
			catch (Throwable ex) {
				return Mono.error(ex);
			}
		});
	}

	/** The body, run when subscribed to; what it throws is an error signal. */
	@SuppressWarnings("unchecked")
	private static Flux<Object> fluxBody(GuardedCall call) {
		return Flux.defer(() -> {
			try {
				Object body = call.proceed();
				if (body instanceof Flux<?> flux) {
					return (Flux<Object>) flux;
				}
				// a Kotlin Flow, through the adapter that turned the guarded Flux back into one
				ReactiveAdapter adapter = (body != null)
						? ReactiveAdapterRegistry.getSharedInstance().getAdapter(body.getClass()) : null;
				return (adapter != null && adapter.isMultiValue()) ? Flux.from((Publisher<Object>) adapter.toPublisher(body))
						: Flux.error(nothing(call));
			}
			catch (Throwable ex) {
				return Flux.error(ex);
			}
		});
	}

	private static IllegalStateException nothing(GuardedCall call) {
		return new IllegalStateException("@ModelArmorGuarded " + call.guarded().name()
				+ " returned null instead of a publisher");
	}

	/** The elements of a guarded {@code Flux}, each one generation of text. */
	private record Elements(GuardedCall call) implements StreamSegments.Chunks<Object> {

		@Override
		public List<String> texts(Object element) {
			String text = this.call.answer(element);
			return List.of((text != null) ? text : "");
		}

		@Override
		public Object withTexts(Object element, List<@Nullable String> texts) {
			String text = texts.get(0);
			return (text != null) ? this.call.replaceAnswer(text) : element;
		}

	}

}
