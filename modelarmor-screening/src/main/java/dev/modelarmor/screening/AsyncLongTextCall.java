package dev.modelarmor.screening;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.WindowCutter.Window;
import dev.modelarmor.screening.cache.VerdictLookup;
import org.jspecify.annotations.Nullable;

/**
 * Screens one whole text asynchronously, as {@link LongTextCall} does on the calling thread. Over a
 * blocking client the cache lookup and a single call run on the executor, and the windows of a longer
 * text are each a task there, none waiting for another. Over a client with a non-blocking path
 * ({@link ModelArmorOperations#isNonBlocking()}) each call is one of that path, holding no thread while it
 * is in flight; only the cache, whose API blocks, is asked on the executor, before and after the calls.
 * On either path, cancelling the returned future cancels the windows in flight (a blocking window's call is
 * interrupted). When the executor is closed, the work it would do is done on the calling thread.
 */
final class AsyncLongTextCall {

	private final LongTextCall blocking;

	/**
	 * Creates the asynchronous call.
	 * @param blocking the same call on the calling thread, with the client, windows, executor and cache
	 */
	AsyncLongTextCall(LongTextCall blocking) {
		this.blocking = blocking;
	}

	/**
	 * Screens a whole text; the future fails as {@link LongTextCall#screen(LongText)} throws.
	 * @param text the text
	 * @return what the template's filters found in the whole text
	 */
	CompletableFuture<SanitizationResult> screen(LongText text) {
		List<Window> parts;
		try {
			parts = this.blocking.windowsOf(text);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (this.blocking.operations().isNonBlocking()) {
			return consultingTheCache(text, () -> calls(text, parts));
		}
		if (parts == null) {
			return onExecutor(() -> this.blocking.screen(text));
		}
		List<Window> windows = parts;
		return consultingTheCache(text, () -> this.blocking.onExecutor(text, windows).start());
	}

	/**
	 * Makes the calls, asking the cache first when there is one (on the executor: its API blocks) and storing
	 * their verdict after. Cancelling the returned future cancels the calls in flight, on either path.
	 */
	private CompletableFuture<SanitizationResult> consultingTheCache(LongText text,
			Supplier<CompletableFuture<SanitizationResult>> calls) {
		if (!this.blocking.cached()) {
			return calls.get();
		}
		CompletableFuture<VerdictLookup> looked = onExecutor(() -> this.blocking.lookup(text));
		CompletableFuture<SanitizationResult> screened = new CompletableFuture<>();
		Futures.cancelWith(screened, looked);
		looked.whenComplete((lookup, failure) -> {
			if (failure != null) {
				screened.completeExceptionally(failure);
				return;
			}
			SanitizationResult verdict = lookup.cached();
			if (verdict != null) {
				screened.complete(verdict);
				return;
			}
			if (screened.isDone()) {
				return;
			}
			CompletableFuture<SanitizationResult> sent = calls.get();
			Futures.cancelWith(screened, sent);
			sent.whenComplete((result, callFailure) -> {
				if (callFailure != null) {
					screened.completeExceptionally(callFailure);
				}
				else if (!screened.isDone()) {
					onExecutor(() -> lookup.store(result)).whenComplete((stored, storeFailure) -> screened.complete(result));
				}
			});
		});
		return screened;
	}

	/**
	 * The calls of the non-blocking path for a text: one, or a run of its windows. A client that throws
	 * instead of failing its future, or returns none, fails this one: called from a completion stage, its
	 * exception would otherwise be lost and the screening never end.
	 */
	private CompletableFuture<SanitizationResult> calls(LongText text, @Nullable List<Window> parts) {
		if (parts != null) {
			return this.blocking.nonBlocking(text, parts).start();
		}
		try {
			CompletableFuture<SanitizationResult> call = text.asyncCall().apply(text.text());
			return (call != null) ? call : CompletableFuture
				.failedFuture(new IllegalStateException("The client's non-blocking call returned no future"));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private <T> CompletableFuture<T> onExecutor(Supplier<T> work) {
		try {
			return CompletableFuture.supplyAsync(work, this.blocking.executor().asExecutor());
		}
		catch (RejectedExecutionException ex) {
			// The executor is closed: the work is done here, as without one.
			try {
				return CompletableFuture.completedFuture(work.get());
			}
			catch (RuntimeException | Error failure) {
				return CompletableFuture.failedFuture(failure);
			}
		}
	}

}
