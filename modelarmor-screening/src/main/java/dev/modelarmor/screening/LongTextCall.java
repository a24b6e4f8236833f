package dev.modelarmor.screening;

import java.util.List;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.WindowCutter.Window;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictLookup;
import org.jspecify.annotations.Nullable;

/**
 * Screens one whole text on the calling thread: its verdict from the cache, else one call of the client or
 * a {@link WindowRun} of its windows on the executor, the verdict stored when it may be kept.
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
	VerdictLookup lookup(LongText text) {
		return VerdictLookup.of(this.cache, this.operations, this.windows.size(), this.windows.overlap(),
				text.operation(), text.text(), text.userPrompt());
	}

	/**
	 * Whether {@link #lookup(LongText)} asks a cache.
	 * @return whether verdicts are cached
	 */
	boolean cached() {
		return VerdictLookup.consulted(this.cache, this.operations);
	}

	/**
	 * The windows of a text, each a task of the executor, not started.
	 * @param text the text
	 * @param parts its windows
	 * @return the run
	 */
	WindowRun onExecutor(LongText text, List<Window> parts) {
		return WindowRun.onExecutor(text, parts, this.windows.parallelism(), this.executor);
	}

	/**
	 * The windows of a text, each a call of the client's non-blocking path, not started.
	 * @param text the text
	 * @param parts its windows
	 * @return the run
	 */
	WindowRun nonBlocking(LongText text, List<Window> parts) {
		return WindowRun.nonBlocking(text, parts, this.windows.parallelism());
	}

	/**
	 * The windows of a text, or {@code null} when it is one call.
	 * @param text the text
	 * @return the windows, or {@code null}
	 */
	@Nullable List<Window> windowsOf(LongText text) {
		return text.windows(this.windows);
	}

	/**
	 * The client each window is screened with.
	 * @return the client
	 */
	ModelArmorOperations operations() {
		return this.operations;
	}

	/**
	 * Where windows run, and the cache is asked off the calling thread.
	 * @return the executor
	 */
	ModelArmorTaskExecutor executor() {
		return this.executor;
	}

}
