package dev.modelarmor.screening;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictLookup;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Screens text of any length whole. Model Armor's prompt-injection, responsible-AI and CSAM filters read
 * only the first 10,000 tokens of an item, so text padded with harmless words ahead of an injection would
 * pass a single call; this screens text longer than one window in overlapping windows
 * ({@link WindowSettings}), each one call of the {@link ModelArmorOperations} it is built on. Text that
 * fits one window is one call whose result is returned as it is.
 *
 * <p>The windows' results make one {@link SanitizationResult}:
 * <ul>
 * <li>any window {@link Verdict#MATCHED matched}: matched, with the filter results of the windows that
 * matched;</li>
 * <li>else any window {@link Verdict#NOT_SCREENED not screened}: a result that is not screened; a window
 * whose call throws a {@link ModelArmorException} makes the whole call throw it;</li>
 * <li>else no match.</li>
 * </ul>
 * Screening stops at the first window that cannot be screened or that matches a filter other than
 * {@code sdp} ({@link SdpOnly}): no window is sent after that, and calls in flight are cancelled. Windows
 * where only {@code sdp} matched do not stop it, because de-identification needs every window: their
 * de-identified texts are joined where the windows overlap, and the result carries the joined text where
 * {@link SanitizationResult#deidentifiedText()} finds it, the same text one call would give. When an
 * overlap was itself changed (a card number inside it, or across a window's edge) the pieces cannot be
 * joined safely and the result carries no de-identified text, so a caller that de-identifies blocks.
 *
 * <p>With a {@link VerdictCache} ({@link #withCache(VerdictCache)}), the verdict of the whole text is
 * looked up before any window is cut, and stored after it was screened when it may be kept. Verdicts are
 * keyed by the template's full name ({@link ModelArmorOperations#templateName()}); a client that does not
 * know it has every text screened.
 *
 * <p>Text that needs more than {@link WindowSettings#maxWindows()} windows is refused with a
 * {@link ModelArmorInputTooLargeException} before anything is sent: its size is the caller's to bound.
 *
 * <p>At most {@link WindowSettings#parallelism()} windows of one text are in flight at a time, each a
 * task of the {@link ModelArmorTaskExecutor}; no thread waits per window. The asynchronous methods, over
 * a client with a non-blocking path ({@link ModelArmorOperations#isNonBlocking()}), send each window as a
 * call of that path instead, holding no thread while it is in flight; the cache alone is asked on the
 * executor, and cancelling the returned future cancels the calls in flight. The blocking methods wait for
 * the whole text, and when the waiting thread is interrupted the windows in flight are cancelled. Thread-safe.
 */
final class LongTextScreening implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LongTextScreening.class);

	/** Threads of an instance made without an executor, which it owns: at most this many windows at once. */
	private static final int OWN_THREADS = 64;

	private final ModelArmorOperations operations;

	private final WindowSettings windows;

	private final ModelArmorTaskExecutor executor;

	private final boolean ownsExecutor;

	/** Verdicts of whole texts already screened, or {@code null} to screen every text. */
	private final @Nullable VerdictCache cache;

	private final LongTextCall call;

	/**
	 * Creates a long-text screening with threads of its own, named {@code modelarmor-window-N}, that
	 * {@link #close()} ends.
	 * @param operations the client that screens each window
	 * @param windows the window size, overlap, parallelism and most windows
	 */
	LongTextScreening(ModelArmorOperations operations, WindowSettings windows) {
		this(operations, windows, ModelArmorTaskExecutor.platformThreads("modelarmor-window-", OWN_THREADS, 0, null),
				true, null);
	}

	/**
	 * Creates a long-text screening whose windows run on an executor it does not own.
	 * @param operations the client that screens each window
	 * @param windows the window size, overlap, parallelism and most windows
	 * @param executor where windows run
	 */
	LongTextScreening(ModelArmorOperations operations, WindowSettings windows, ModelArmorTaskExecutor executor) {
		this(operations, windows, executor, false, null);
	}

	private LongTextScreening(ModelArmorOperations operations, WindowSettings windows,
			ModelArmorTaskExecutor executor, boolean ownsExecutor, @Nullable VerdictCache cache) {
		Assert.notNull(operations, "operations must not be null");
		Assert.notNull(windows, "windows must not be null");
		this.operations = operations;
		this.windows = windows;
		this.executor = executor;
		this.ownsExecutor = ownsExecutor;
		this.cache = cache;
		this.call = new LongTextCall(operations, windows, executor, cache);
	}

	/**
	 * Screens a user prompt of any length.
	 * @param prompt the prompt text
	 * @return what the template's filters found in the whole prompt
	 * @throws ModelArmorInputTooLargeException when the prompt needs more than
	 * {@link WindowSettings#maxWindows()} windows; nothing was sent
	 * @throws ModelArmorException when a window could not be screened and none matched
	 */
	SanitizationResult sanitizeUserPrompt(String prompt) {
		return this.call.screen(prompt(prompt));
	}

	/**
	 * Screens a model response of any length. The prompt goes along with every window as context, cut to
	 * its last {@link WindowSettings#overlap()} bytes, so that no request grows past one window and its
	 * overlap (under the filters' 10,000 tokens with the defaults, even counted together).
	 * @param response the response text
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @return what the template's filters found in the whole response
	 * @throws ModelArmorInputTooLargeException when the response needs more than
	 * {@link WindowSettings#maxWindows()} windows; nothing was sent
	 * @throws ModelArmorException when a window could not be screened and none matched
	 */
	SanitizationResult sanitizeModelResponse(String response, @Nullable String userPrompt) {
		return this.call.screen(response(response, userPrompt));
	}

	/**
	 * Screens a user prompt of any length on the executor; the future fails as
	 * {@link #sanitizeUserPrompt(String)} throws. When the executor is closed, the prompt is screened
	 * on the calling thread.
	 * @param prompt the prompt text
	 * @return what the template's filters found in the whole prompt
	 */
	CompletableFuture<SanitizationResult> sanitizeUserPromptAsync(String prompt) {
		return this.call.screenAsync(prompt(prompt));
	}

	/**
	 * Screens a model response of any length on the executor, as
	 * {@link #sanitizeModelResponse(String, String)} does.
	 * @param response the response text
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @return what the template's filters found in the whole response
	 */
	CompletableFuture<SanitizationResult> sanitizeModelResponseAsync(String response, @Nullable String userPrompt) {
		return this.call.screenAsync(response(response, userPrompt));
	}

	/**
	 * The same screening with another template of the same client, on the same executor: close this one,
	 * not it.
	 * @param templateId the template id
	 * @return a long-text screening that uses that template
	 */
	LongTextScreening withTemplate(String templateId) {
		ModelArmorOperations operations = this.operations.withTemplate(templateId);
		if (operations == null) {
			throw returnedNull("withTemplate(String)", "ModelArmorOperations");
		}
		return new LongTextScreening(operations, this.windows, this.executor, false, this.cache);
	}

	/**
	 * The same screening with a template of another location, as {@link #withTemplate(String)}.
	 * @param template the template and its location
	 * @return a long-text screening that uses that template where it lives
	 */
	LongTextScreening withTemplate(TemplateReference template) {
		ModelArmorOperations operations = this.operations.withTemplate(template);
		if (operations == null) {
			throw returnedNull("withTemplate(TemplateReference)", "ModelArmorOperations");
		}
		return new LongTextScreening(operations, this.windows, this.executor, false, this.cache);
	}

	/**
	 * The same screening, looking up the verdict of each whole text in a cache before screening it and
	 * storing the verdicts it may keep ({@link VerdictCache}), on the same executor: close this one, not it.
	 * Over a client that does not know its template's full name every text is screened.
	 * @param cache the verdict cache
	 * @return a long-text screening that uses it, also for the screenings {@link #withTemplate(String)} makes
	 */
	LongTextScreening withCache(VerdictCache cache) {
		Assert.notNull(cache, "cache must not be null");
		if (this.operations.templateName() == null) {
			logger.warn("Model Armor verdicts are not cached, the client does not name the template a verdict "
					+ "depends on: client=" + this.operations.getClass().getName() + " cache=" + cache.name());
		}
		return new LongTextScreening(this.operations, this.windows, this.executor, false, cache);
	}

	/**
	 * The client each window is screened with.
	 * @return the client, bound to this screening's template
	 */
	ModelArmorOperations operations() {
		return this.operations;
	}

	/**
	 * Ends the threads that screen windows, when this instance owns them, cancelling the windows in flight:
	 * their callers get a {@link ModelArmorException}. Text that fits one window is still screened
	 * afterwards; longer text is not.
	 */
	@Override
	public void close() {
		if (this.ownsExecutor) {
			this.executor.close();
		}
	}

	private LongText prompt(String prompt) {
		Objects.requireNonNull(prompt, "prompt must not be null");
		return new LongText(VerdictLookup.USER_PROMPT, "prompt", prompt, null,
				nonNull("sanitizeUserPrompt(String)", this.operations::sanitizeUserPrompt),
				(window) -> this.operations.sanitizeUserPromptAsync(DataItem.text(window), SanitizeOptions.NONE,
						this.executor.asExecutor()));
	}

	private LongText response(String response, @Nullable String userPrompt) {
		Objects.requireNonNull(response, "response must not be null");
		String context = (userPrompt != null) ? WindowCutter.tail(userPrompt, this.windows.overlap()) : "";
		Function<String, SanitizationResult> call = context.isEmpty()
				? nonNull("sanitizeModelResponse(String)", this.operations::sanitizeModelResponse)
				: nonNull("sanitizeModelResponse(String, String)",
						(window) -> this.operations.sanitizeModelResponse(window, context));
		String prompt = context.isEmpty() ? null : context;
		return new LongText(VerdictLookup.MODEL_RESPONSE, "model response", response, userPrompt, call,
				(window) -> this.operations.sanitizeModelResponseAsync(DataItem.text(window), prompt, SanitizeOptions.NONE,
						this.executor.asExecutor()));
	}

	/**
	 * A call of the client that must not answer {@code null}: say so, instead of failing later with a
	 * {@link NullPointerException} deep inside the screening.
	 */
	private Function<String, SanitizationResult> nonNull(String method, Function<String, SanitizationResult> call) {
		return (text) -> {
			SanitizationResult result = call.apply(text);
			if (result == null) {
				throw returnedNull(method, "SanitizationResult");
			}
			return result;
		};
	}

	private IllegalStateException returnedNull(String method, String type) {
		return new IllegalStateException(this.operations.getClass().getName() + "." + method
				+ " returned null instead of a " + type + "; every call of a ModelArmorOperations must return one");
	}

}
