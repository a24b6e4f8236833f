package dev.modelarmor.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The few future combinators the non-blocking code needs beyond {@link CompletableFuture}'s own: a cancel
 * that reaches the step in flight, and the failure without the wrapper a stage adds.
 */
public final class Futures {

	private Futures() {
	}

	/**
	 * The failure as it was raised: a stage wraps a failure of an earlier stage in a
	 * {@link CompletionException} (or {@code get()} in an {@link ExecutionException}).
	 * @param failure the failure a stage or {@code get()} saw
	 * @return its cause, unwrapped as far as it goes
	 */
	public static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/**
	 * The failure as it was raised, or {@code null} for none.
	 * @param failure the failure a stage saw, or {@code null}
	 * @return its cause, or {@code null}
	 */
	public static @Nullable Throwable unwrapNullable(@Nullable Throwable failure) {
		return (failure != null) ? unwrap(failure) : null;
	}

	/**
	 * Waits for a future and gives its value, or throws its failure as it was raised: an unchecked one itself,
	 * a checked one in the {@link CompletionException} that {@code join} throws.
	 * @param future the future
	 * @param <T> its value
	 * @return its value
	 */
	public static <T> T join(CompletableFuture<T> future) {
		try {
			return future.join();
		}
		catch (CompletionException ex) {
			Throwable cause = unwrap(ex);
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * When {@code outer} is cancelled, so is {@code inner}: a cancelled call cancels its step in flight.
	 * @param outer the future a caller holds
	 * @param inner the step it waits for
	 */
	public static void cancelWith(CompletableFuture<?> outer, CompletableFuture<?> inner) {
		outer.whenComplete((done, failure) -> {
			if (outer.isCancelled()) {
				inner.cancel(true);
			}
		});
	}

	/**
	 * {@code thenCompose} whose cancel reaches the step in flight, the first or the next; the next step's
	 * failure, thrown or as its future's, fails the result unwrapped.
	 * @param first the first step
	 * @param next makes the next step from the first one's value
	 * @param <A> the first step's value
	 * @param <B> the next step's value
	 * @return the next step's value
	 */
	public static <A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next) {
		return then(first, next, null);
	}

	/**
	 * {@link #then(CompletableFuture, Function)}, telling {@code skipped} of the first step's value when the
	 * result was cancelled before the next step could start (so that what the first step holds is let go).
	 * @param first the first step
	 * @param next makes the next step from the first one's value
	 * @param skipped hears the first step's value when the next step never runs, or {@code null}
	 * @param <A> the first step's value
	 * @param <B> the next step's value
	 * @return the next step's value
	 */
	public static <A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next,
			@Nullable Consumer<A> skipped) {
		CompletableFuture<B> result = new CompletableFuture<>();
		cancelWith(result, first);
		first.whenComplete((value, failure) -> {
			if (failure != null) {
				result.completeExceptionally(unwrap(failure));
				return;
			}
			if (result.isDone()) {
				if (skipped != null) {
					skipped.accept(value);
				}
				return;
			}
			CompletableFuture<B> second;
			try {
				second = next.apply(value);
			}
			catch (RuntimeException ex) {
				result.completeExceptionally(ex);
				return;
			}
			cancelWith(result, second);
			completeWith(result, second);
		});
		return result;
	}

	/**
	 * Completes {@code target} as {@code source} completes, its failure unwrapped.
	 * @param target the future to complete
	 * @param source the future it follows
	 * @param <T> the value
	 */
	public static <T> void completeWith(CompletableFuture<T> target, CompletableFuture<? extends T> source) {
		source.whenComplete((value, failure) -> {
			if (failure != null) {
				target.completeExceptionally(unwrap(failure));
			}
			else {
				target.complete(value);
			}
		});
	}

}
