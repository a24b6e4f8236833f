package dev.modelarmor.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.TextWindows.Plan;
import dev.modelarmor.client.TextWindows.Window;
import dev.modelarmor.retry.CallOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Screens text of any length whole. Model Armor's prompt-injection, responsible-AI and CSAM filters read
 * only the first 10,000 tokens of an item, so text padded with harmless words ahead of an injection would
 * pass a single call; this screens text longer than one window in overlapping windows
 * ({@link ScreeningWindows}), each one call of the {@link ModelArmorOperations} it is built on. Text that
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
 * {@code sdp}: no window is sent after that, and calls in flight are cancelled. Windows where only
 * {@code sdp} matched do not stop it, because de-identification needs every window: their de-identified
 * texts are joined where the windows overlap, and the result carries the joined text where
 * {@link SanitizationResult#deidentifiedText()} finds it, the same text one call would give. When an
 * overlap was itself changed (a card number inside it, or across a window's edge) the pieces cannot be
 * joined safely and the result carries no de-identified text, so a caller that de-identifies blocks.
 *
 * <p>With a {@link VerdictCache} ({@link #withCache(VerdictCache)}), the verdict of the whole text is
 * looked up before any window is cut, and stored after it was screened when it may be kept.
 *
 * <p>Text that needs more than {@link ScreeningWindows#maxWindows()} windows is refused with a
 * {@link ModelArmorInputTooLargeException} before anything is sent: its size is the caller's to bound.
 *
 * <p>At most {@link ScreeningWindows#parallelism()} windows of one text are in flight at a time, on daemon
 * threads named {@code modelarmor-window-N} that this object owns; the calling thread waits, and when it
 * is interrupted the windows in flight are cancelled. {@link #close()} ends the threads. Thread-safe.
 */
public final class WindowedScreening implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(WindowedScreening.class);

	private static final Set<String> SDP_ONLY = Set.of("sdp");

	private final ModelArmorOperations operations;

	private final ScreeningWindows windows;

	private final ExecutorService executor;

	private final boolean ownsExecutor;

	/** Verdicts of whole texts already screened, or {@code null} to screen every text. */
	private final @Nullable VerdictCache cache;

	/**
	 * Creates a windowed screening over a client.
	 * @param operations the client that screens each window
	 * @param windows the window size, overlap, parallelism and most windows
	 */
	public WindowedScreening(ModelArmorOperations operations, ScreeningWindows windows) {
		this(operations, windows, newExecutor(), true, null);
	}

	private WindowedScreening(ModelArmorOperations operations, ScreeningWindows windows, ExecutorService executor,
			boolean ownsExecutor, @Nullable VerdictCache cache) {
		Assert.notNull(operations, "operations must not be null");
		Assert.notNull(windows, "windows must not be null");
		this.operations = operations;
		this.windows = windows;
		this.executor = executor;
		this.ownsExecutor = ownsExecutor;
		this.cache = cache;
	}

	/**
	 * Screens a user prompt of any length.
	 * @param prompt the prompt text
	 * @return what the template's filters found in the whole prompt
	 * @throws ModelArmorInputTooLargeException when the prompt needs more than
	 * {@link ScreeningWindows#maxWindows()} windows; nothing was sent
	 * @throws ModelArmorException when a window could not be screened and none matched
	 */
	public SanitizationResult sanitizeUserPrompt(String prompt) {
		Objects.requireNonNull(prompt, "prompt must not be null");
		return cached(VerdictKey.USER_PROMPT, prompt, null, () -> screen("prompt", prompt,
				nonNull("sanitizeUserPrompt(String)", this.operations::sanitizeUserPrompt)));
	}

	/**
	 * Screens a model response of any length. The prompt goes along with every window as context, cut to
	 * its last {@link ScreeningWindows#overlap()} bytes, so that no request grows past one window and its
	 * overlap (under the filters' 10,000 tokens with the defaults, even counted together).
	 * @param response the response text
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @return what the template's filters found in the whole response
	 * @throws ModelArmorInputTooLargeException when the response needs more than
	 * {@link ScreeningWindows#maxWindows()} windows; nothing was sent
	 * @throws ModelArmorException when a window could not be screened and none matched
	 */
	public SanitizationResult sanitizeModelResponse(String response, @Nullable String userPrompt) {
		Objects.requireNonNull(response, "response must not be null");
		String context = (userPrompt != null) ? TextWindows.tail(userPrompt, this.windows.overlap()) : "";
		Function<String, SanitizationResult> call = context.isEmpty()
				? nonNull("sanitizeModelResponse(String)", this.operations::sanitizeModelResponse)
				: nonNull("sanitizeModelResponse(String, String)",
						(window) -> this.operations.sanitizeModelResponse(window, context));
		return cached(VerdictKey.MODEL_RESPONSE, response, userPrompt, () -> screen("model response", response, call));
	}

	/**
	 * The same screening with another template of the same client. It shares this one's threads: close
	 * this one, not it.
	 * @param templateId the template id
	 * @return a windowed screening that uses that template
	 */
	public WindowedScreening withTemplate(String templateId) {
		ModelArmorOperations operations = this.operations.withTemplate(templateId);
		if (operations == null) {
			throw returnedNull("withTemplate(String)", "ModelArmorOperations",
					"willReturn(modelArmor) (the mock itself)");
		}
		return new WindowedScreening(operations, this.windows, this.executor, false, this.cache);
	}

	/**
	 * The same screening, looking up the verdict of each whole text in a cache before screening it and
	 * storing the verdicts it may keep ({@link VerdictCache}). It shares this one's threads: close this
	 * one, not it. Verdicts are cached only over a {@link ModelArmorTemplate}, whose template's full name
	 * keys them; over any other {@link ModelArmorOperations} every text is screened.
	 * @param cache the verdict cache
	 * @return a windowed screening that uses it, also for the screenings {@link #withTemplate(String)} makes
	 */
	public WindowedScreening withCache(VerdictCache cache) {
		Assert.notNull(cache, "cache must not be null");
		if (!(this.operations instanceof ModelArmorTemplate)) {
			logger.warn("Model Armor verdicts are not cached, the client is no ModelArmorTemplate and the template a "
					+ "verdict depends on is unknown: client=" + this.operations.getClass().getName() + " cache="
					+ cache.name());
		}
		return new WindowedScreening(this.operations, this.windows, this.executor, false, cache);
	}

	/**
	 * Ends the threads that screen windows, cancelling the windows in flight: their callers get a
	 * {@link ModelArmorException}. Text that fits one window is still screened afterwards; longer text is
	 * not. Does nothing on an instance made by {@link #withTemplate(String)}.
	 */
	@Override
	public void close() {
		if (this.ownsExecutor) {
			this.executor.shutdownNow();
		}
	}

	/**
	 * The verdict of a whole text from the cache, or its screening (stored when it may be). A failure or a
	 * refusal of the input is an exception and never reaches the cache.
	 */
	private SanitizationResult cached(String operation, String text, @Nullable String userPrompt,
			Supplier<SanitizationResult> screening) {
		VerdictCache verdicts = this.cache;
		if (verdicts == null) {
			return screening.get();
		}
		String templateName = (this.operations instanceof ModelArmorTemplate template) ? template.templateName() : null;
		if (templateName == null) {
			return screening.get();
		}
		VerdictKey key = VerdictKey.of(templateName, operation, this.windows, text, userPrompt);
		SanitizationResult cached = verdicts.get(key);
		if (cached != null) {
			return cached;
		}
		long generation = verdicts.generation();
		SanitizationResult result = screening.get();
		verdicts.put(key, result, generation);
		return result;
	}

	private SanitizationResult screen(String what, String text, Function<String, SanitizationResult> call) {
		if (text.length() <= this.windows.size() / NormalizedUtf8.MAX_CODE_POINT_COST) {
			// Too short to need a window boundary whatever its characters: no need to measure it.
			return call.apply(text);
		}
		Plan plan = TextWindows.split(text, this.windows);
		if (!plan.complete()) {
			throw tooLarge(what, text, plan);
		}
		if (plan.windows().size() == 1) {
			return call.apply(text);
		}
		return new Run(what, text, plan.windows(), call).screen();
	}

	private ModelArmorInputTooLargeException tooLarge(String what, String text, Plan plan) {
		long size = Utf8.length(text);
		List<Window> parts = plan.windows();
		long reached = Utf8.length(text.subSequence(0, parts.get(parts.size() - 1).end()));
		return new ModelArmorInputTooLargeException(size, reached, "The " + what + " is " + size
				+ " bytes (UTF-8); screened whole it needs more than " + this.windows.maxWindows() + " windows of "
				+ this.windows.size() + " bytes, which reach only its first " + reached
				+ " bytes. Shorten it, or raise modelarmor.guard.window.max-windows (ScreeningWindows.maxWindows)");
	}

	/**
	 * A call of the client that must not answer {@code null}. A mock does for every call that is not stubbed:
	 * say so, instead of failing later with a {@link NullPointerException} deep inside the screening.
	 */
	private Function<String, SanitizationResult> nonNull(String method, Function<String, SanitizationResult> call) {
		return (text) -> {
			SanitizationResult result = call.apply(text);
			if (result == null) {
				throw returnedNull(method, "SanitizationResult",
						"willReturn(ModelArmorResults.clean()) (dev.modelarmor.test.ModelArmorResults from "
								+ "modelarmor-spring-boot-test has clean(), matched(..), deidentified(..), notScreened())");
			}
			return result;
		};
	}

	private IllegalStateException returnedNull(String method, String type, String stub) {
		return new IllegalStateException(this.operations.getClass().getName() + "." + method
				+ " returned null instead of a " + type + ". A mock returns null for every call that is not "
				+ "stubbed: stub " + method + ", e.g. given(modelArmor." + method.substring(0, method.indexOf('('))
				+ "(..))." + stub);
	}

	private static boolean stopsEarly(SanitizationResult result) {
		Verdict verdict = result.verdict();
		return verdict == Verdict.NOT_SCREENED
				|| (verdict == Verdict.MATCHED && !result.matchedFilters().equals(SDP_ONLY));
	}

	private static ExecutorService newExecutor() {
		AtomicInteger threads = new AtomicInteger();
		// Threads come and go with demand: at most parallelism per text being screened, none when idle.
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(task) -> {
					Thread thread = new Thread(task, "modelarmor-window-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	/**
	 * The screening of one text: its windows, their results, and the calls in flight.
	 */
	private final class Run {

		private final String what;

		private final String text;

		private final List<Window> parts;

		private final Function<String, SanitizationResult> call;

		private final @Nullable SanitizationResult[] results;

		/** Set by the first window that stops the run; a window that starts afterwards is not sent. */
		private final AtomicBoolean stopped = new AtomicBoolean();

		private final AtomicInteger sent = new AtomicInteger();

		private final CompletionService<Answer> completions = new ExecutorCompletionService<>(
				WindowedScreening.this.executor);

		private final List<Future<Answer>> inFlight = new ArrayList<>();

		private int next;

		Run(String what, String text, List<Window> parts, Function<String, SanitizationResult> call) {
			this.what = what;
			this.text = text;
			this.parts = parts;
			this.call = call;
			this.results = new SanitizationResult[parts.size()];
		}

		SanitizationResult screen() {
			Throwable failure = null;
			try {
				sendWhileRoom();
				while (!this.inFlight.isEmpty()) {
					Future<Answer> done = this.completions.take();
					this.inFlight.remove(done);
					Answer answer = done.get();
					if (answer.failure() != null) {
						failure = answer.failure();
						break;
					}
					SanitizationResult result = answer.result();
					if (result != null) {
						this.results[answer.index()] = result;
						if (stopsEarly(result)) {
							break;
						}
					}
					sendWhileRoom();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw abandoned("was interrupted", ex);
			}
			catch (ExecutionException ex) {
				// Unreachable: a window's task returns its failure instead of throwing it.
				throw new IllegalStateException("A window's task failed", ex.getCause());
			}
			finally {
				this.stopped.set(true);
				this.inFlight.forEach((future) -> future.cancel(true));
			}
			return decide(failure);
		}

		private SanitizationResult decide(@Nullable Throwable failure) {
			if (failure instanceof Error error) {
				throw error;
			}
			if (failure != null && !(failure instanceof ModelArmorException)) {
				throw (RuntimeException) failure;
			}
			boolean matched = false;
			for (SanitizationResult result : this.results) {
				matched |= (result != null && result.verdict() == Verdict.MATCHED);
			}
			if (failure != null && !matched) {
				throw (ModelArmorException) failure;
			}
			SanitizationResult merged = WindowMerge.merge(this.text, this.parts, this.results);
			if (logger.isDebugEnabled()) {
				logger.debug("Model Armor windowed screening: item=\"" + this.what + "\" windows=" + this.parts.size()
						+ " sent=" + this.sent.get() + " verdict=" + merged.verdict().name().toLowerCase(Locale.ROOT));
			}
			return merged;
		}

		private void sendWhileRoom() {
			while (this.next < this.parts.size() && this.inFlight.size() < WindowedScreening.this.windows.parallelism()
					&& !this.stopped.get()) {
				int index = this.next++;
				try {
					this.inFlight.add(this.completions.submit(() -> screenWindow(index)));
				}
				catch (RejectedExecutionException ex) {
					throw abandoned("was abandoned: the windowed screening is closed", ex);
				}
			}
		}

		private Answer screenWindow(int index) {
			if (this.stopped.get()) {
				return new Answer(index, null, null);
			}
			try {
				this.sent.incrementAndGet();
				SanitizationResult result = this.call.apply(this.parts.get(index).of(this.text));
				if (stopsEarly(result)) {
					this.stopped.set(true);
				}
				return new Answer(index, result, null);
			}
			catch (RuntimeException | Error ex) {
				this.stopped.set(true);
				return new Answer(index, null, ex);
			}
		}

		private ModelArmorException abandoned(String how, Exception cause) {
			int answered = 0;
			for (SanitizationResult result : this.results) {
				answered += (result != null) ? 1 : 0;
			}
			return new ModelArmorException("The windowed screening of a " + this.what + " " + how + " after " + answered
					+ " of " + this.parts.size() + " windows", 0, cause, CallOutcome.INTERRUPTED);
		}

	}

	/**
	 * What one window's task came back with: its result, or the failure of its call, or neither when it
	 * was not sent because the run had stopped.
	 */
	private record Answer(int index, @Nullable SanitizationResult result, @Nullable Throwable failure) {
	}

}
