package dev.modelarmor.screening;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.WindowCutter.Window;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictLookup;
import org.jspecify.annotations.Nullable;

/**
 * Screens one whole text, on the calling thread or without blocking it: its verdict from the cache, else one
 * call of the client or a {@link WindowRun} of its windows, the verdict stored when it may be kept.
 */
final class LongTextCall {

	private final ModelArmorOperations operations;

	private final WindowSettings windows;

	private final ModelArmorTaskExecutor executor;

	private final @Nullable VerdictCache cache;

	/**
	 * Creates the call.
	 * @param operations the client, which names the template verdicts are kept for
	 * @param windows the window size, overlap, parallelism and most windows
	 * @param executor where windows run
	 * @param cache verdicts of whole texts already screened, or {@code null} to screen every text
	 */
	LongTextCall(ModelArmorOperations operations, WindowSettings windows, ModelArmorTaskExecutor executor,
			@Nullable VerdictCache cache) {
		this.operations = operations;
		this.windows = windows;
		this.executor = executor;
		this.cache = cache;
	}

	/**
	 * The verdict of a whole text from the cache, or its screening (stored when it may be), on this thread.
	 * @param text the text
	 * @return what the template's filters found in the whole text
	 */
	SanitizationResult screen(LongText text) {
		VerdictLookup lookup = lookup(text);
		SanitizationResult cached = lookup.cached();
		if (cached != null) {
			return cached;
		}
		List<Window> parts = text.windows(this.windows);
		SanitizationResult result = (parts != null) ? onExecutor(text, parts).await() : text.call().apply(text.text());
		return lookup.store(result);
	}

	/**
	 * Looks a whole text up in the cache, blocking as long as the cache does.
	 * @param text the text
	 * @return the lookup
	 */
	private VerdictLookup lookup(LongText text) {
		return VerdictLookup.of(this.cache, this.operations, this.windows.size(), this.windows.overlap(),
				text.operation(), text.text(), text.userPrompt());
	}

	/**
	 * Whether {@link #lookup(LongText)} asks a cache.
	 * @return whether verdicts are cached
	 */
	private boolean cached() {
		return VerdictLookup.consulted(this.cache, this.operations);
	}

	/**
	 * The windows of a text, each a task of the executor, not started.
	 * @param text the text
	 * @param parts its windows
	 * @return the run
	 */
	private WindowRun onExecutor(LongText text, List<Window> parts) {
		return WindowRun.onExecutor(text, parts, this.windows.parallelism(), this.executor);
	}

	/**
	 * The windows of a text, each a call of the client's non-blocking path, not started.
	 * @param text the text
	 * @param parts its windows
	 * @return the run
	 */
	private WindowRun nonBlocking(LongText text, List<Window> parts) {
		return WindowRun.nonBlocking(text, parts, this.windows.parallelism());
	}

	/**
	 * Screens a whole text without blocking the caller; the future fails as {@link #screen(LongText)} throws. Over
	 * a blocking client the cache lookup and a single call run on the executor, and the windows of a longer
	 * text are each a task there, none waiting for another. Over a client with a non-blocking path
	 * ({@link ModelArmorOperations#isNonBlocking()}) each call is one of that path, holding no thread while it
	 * is in flight; only the cache, whose API blocks, is asked on the executor, before and after the calls.
	 * On either path, cancelling the returned future cancels the windows in flight (a blocking window's call
	 * is interrupted). When the executor is closed, the work it would do is done on the calling thread.
	 * @param text the text
	 * @return what the template's filters found in the whole text
	 */
	CompletableFuture<SanitizationResult> screenAsync(LongText text) {
		List<Window> parts;
		try {
			parts = text.windows(this.windows);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (this.operations.isNonBlocking()) {
			return consultingTheCache(text, () -> calls(text, parts));
		}
		if (parts == null) {
			return supplyOnExecutor(() -> screen(text));
		}
		List<Window> windows = parts;
		return consultingTheCache(text, () -> onExecutor(text, windows).start());
	}

	/**
	 * Makes the calls, asking the cache first when there is one (on the executor: its API blocks) and storing
	 * their verdict after. Cancelling the returned future cancels the calls in flight, on either path.
	 */
	private CompletableFuture<SanitizationResult> consultingTheCache(LongText text,
			Supplier<CompletableFuture<SanitizationResult>> calls) {
		if (!cached()) {
			return calls.get();
		}
		CompletableFuture<VerdictLookup> looked = supplyOnExecutor(() -> lookup(text));
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
					supplyOnExecutor(() -> lookup.store(result)).whenComplete((stored, storeFailure) -> screened.complete(result));
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
			return nonBlocking(text, parts).start();
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

	private <T> CompletableFuture<T> supplyOnExecutor(Supplier<T> work) {
		try {
			return CompletableFuture.supplyAsync(work, this.executor.asExecutor());
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
