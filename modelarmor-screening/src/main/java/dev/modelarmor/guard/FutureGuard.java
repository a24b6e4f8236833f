package dev.modelarmor.guard;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;

/**
 * A guarded method that returns a {@link CompletableFuture} or {@link CompletionStage}: the future returned
 * at once completes with the answer once its prompt and answer passed, or fails with the refusal's
 * exception. The body runs when the prompt passed (on the thread that completed its screening), or at
 * once for a {@link ModelArmorGuarded#sideEffectFree() side-effect-free} method, whose answer is held until
 * the prompt's verdict. Cancelling the returned future cancels the screening and the body's future in
 * flight. Needs no Reactor.
 */
final class FutureGuard {

	private final GuardedCall call;

	private final CompletableFuture<@Nullable Object> result = new CompletableFuture<>();

	private final List<Future<?>> inFlight = new CopyOnWriteArrayList<>();

	private FutureGuard(GuardedCall call) {
		this.call = call;
		this.result.whenComplete((value, failure) -> {
			if (this.result.isCancelled()) {
				this.inFlight.forEach((future) -> future.cancel(true));
			}
		});
	}

	static CompletableFuture<@Nullable Object> guard(GuardedCall call) {
		FutureGuard guard = new FutureGuard(call);
		guard.start();
		return guard.result;
	}

	private void start() {
		try {
			String prompt = this.call.prompt();
			if (prompt == null) {
				runBody(null);
			}
			else if (this.call.guarded().parallel()) {
				CompletableFuture<ScreeningDecision> verdict = track(this.call.screenPrompt(prompt, false));
				CompletableFuture<?> body = track(body());
				verdict.whenComplete(step((decision) -> {
					if (decision instanceof Refusal refusal) {
						body.cancel(true);
						this.result.completeExceptionally(refusal.exception());
						return;
					}
					body.whenComplete(step((value) -> screenAnswer(value, prompt)));
				}));
			}
			else {
				track(this.call.screenPrompt(prompt, this.call.promptReplaceable())).whenComplete(step((decision) -> {
					if (decision instanceof Refusal refusal) {
						this.result.completeExceptionally(refusal.exception());
						return;
					}
					String goOnWith = prompt;
					if (decision instanceof Deidentified deidentified) {
						this.call.replacePrompt(deidentified.text());
						goOnWith = deidentified.text();
					}
					runBody(goOnWith);
				}));
			}
		}
		catch (Throwable ex) {
			this.result.completeExceptionally(ex);
		}
	}

	private void runBody(@Nullable String prompt) throws Throwable {
		track(body()).whenComplete(step((value) -> screenAnswer(value, prompt)));
	}

	private CompletableFuture<?> body() throws Throwable {
		Object returned = this.call.proceed();
		if (returned == null) {
			return CompletableFuture.failedFuture(new IllegalStateException(
					"@ModelArmorGuarded " + this.call.guarded().name() + " returned null instead of a future"));
		}
		return ((CompletionStage<?>) returned).toCompletableFuture();
	}

	private void screenAnswer(@Nullable Object value, @Nullable String prompt) {
		String text = this.call.answer(value);
		if (text == null) {
			this.result.complete(value);
			return;
		}
		track(this.call.screenAnswer(text, prompt)).whenComplete(step((decision) -> {
			if (decision instanceof Refusal refusal) {
				this.result.completeExceptionally(refusal.exception());
			}
			else if (decision instanceof Deidentified deidentified) {
				this.result.complete(this.call.replaceAnswer(deidentified.text()));
			}
			else {
				this.result.complete(value);
			}
		}));
	}

	private <T extends Future<?>> T track(T future) {
		this.inFlight.add(future);
		if (this.result.isCancelled()) {
			future.cancel(true);
		}
		return future;
	}

	/** What to do with a stage's value; a stage that failed, or a step that throws, fails the result. */
	private <T> BiConsumer<T, @Nullable Throwable> step(Step<T> next) {
		return (value, failure) -> {
			if (this.result.isDone()) {
				return;
			}
			if (failure != null) {
				this.result.completeExceptionally(Futures.unwrap(failure));
				return;
			}
			try {
				next.accept(value);
			}
			catch (Throwable ex) {
				this.result.completeExceptionally(ex);
			}
		};
	}

	@FunctionalInterface
	private interface Step<T> {

		void accept(T value) throws Throwable;

	}

}
