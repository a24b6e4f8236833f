package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.Utf8;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.screening.TextWindows.Plan;
import dev.modelarmor.screening.TextWindows.Window;
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
 * <p>Text that needs more than {@link ScreeningWindows#maxWindows()} windows is refused with a
 * {@link ModelArmorInputTooLargeException} before anything is sent: its size is the caller's to bound.
 *
 * <p>At most {@link ScreeningWindows#parallelism()} windows of one text are in flight at a time, each a
 * task of the {@link ModelArmorTaskExecutor}; no thread waits per window. The asynchronous methods, over
 * a client with a non-blocking path ({@link ModelArmorOperations#isNonBlocking()}), send each window as a
 * call of that path instead, holding no thread while it is in flight; the cache alone is asked on the
 * executor, and cancelling the returned future cancels the calls in flight. The blocking methods wait for
 * the whole text, and when the waiting thread is interrupted the windows in flight are cancelled. Thread-safe.
 */
final class WindowedScreening implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(WindowedScreening.class);

	/** Threads of an instance made without an executor, which it owns: at most this many windows at once. */
	private static final int OWN_THREADS = 64;

	private final ModelArmorOperations operations;

	private final ScreeningWindows windows;

	private final ModelArmorTaskExecutor executor;

	private final boolean ownsExecutor;

	/** Verdicts of whole texts already screened, or {@code null} to screen every text. */
	private final @Nullable VerdictCache cache;

	/**
	 * Creates a windowed screening with threads of its own, named {@code modelarmor-window-N}, that
	 * {@link #close()} ends.
	 * @param operations the client that screens each window
	 * @param windows the window size, overlap, parallelism and most windows
	 */
	WindowedScreening(ModelArmorOperations operations, ScreeningWindows windows) {
		this(operations, windows, ModelArmorTaskExecutor.platformThreads("modelarmor-window-", OWN_THREADS, 0, null),
				true, null);
	}

	/**
	 * Creates a windowed screening whose windows run on an executor it does not own.
	 * @param operations the client that screens each window
	 * @param windows the window size, overlap, parallelism and most windows
	 * @param executor where windows run
	 */
	WindowedScreening(ModelArmorOperations operations, ScreeningWindows windows, ModelArmorTaskExecutor executor) {
		this(operations, windows, executor, false, null);
	}

	private WindowedScreening(ModelArmorOperations operations, ScreeningWindows windows,
			ModelArmorTaskExecutor executor, boolean ownsExecutor, @Nullable VerdictCache cache) {
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
	SanitizationResult sanitizeUserPrompt(String prompt) {
		return blocking(prompt(prompt));
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
	SanitizationResult sanitizeModelResponse(String response, @Nullable String userPrompt) {
		return blocking(response(response, userPrompt));
	}

	/**
	 * Screens a user prompt of any length on the executor; the future fails as
	 * {@link #sanitizeUserPrompt(String)} throws. When the executor is closed, the prompt is screened
	 * on the calling thread.
	 * @param prompt the prompt text
	 * @return what the template's filters found in the whole prompt
	 */
	CompletableFuture<SanitizationResult> sanitizeUserPromptAsync(String prompt) {
		return async(prompt(prompt));
	}

	/**
	 * Screens a model response of any length on the executor, as
	 * {@link #sanitizeModelResponse(String, String)} does.
	 * @param response the response text
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @return what the template's filters found in the whole response
	 */
	CompletableFuture<SanitizationResult> sanitizeModelResponseAsync(String response, @Nullable String userPrompt) {
		return async(response(response, userPrompt));
	}

	/**
	 * The same screening with another template of the same client, on the same executor: close this one,
	 * not it.
	 * @param templateId the template id
	 * @return a windowed screening that uses that template
	 */
	WindowedScreening withTemplate(String templateId) {
		ModelArmorOperations operations = this.operations.withTemplate(templateId);
		if (operations == null) {
			throw returnedNull("withTemplate(String)", "ModelArmorOperations");
		}
		return new WindowedScreening(operations, this.windows, this.executor, false, this.cache);
	}

	/**
	 * The same screening, looking up the verdict of each whole text in a cache before screening it and
	 * storing the verdicts it may keep ({@link VerdictCache}), on the same executor: close this one, not it.
	 * Over a client that does not know its template's full name every text is screened.
	 * @param cache the verdict cache
	 * @return a windowed screening that uses it, also for the screenings {@link #withTemplate(String)} makes
	 */
	WindowedScreening withCache(VerdictCache cache) {
		Assert.notNull(cache, "cache must not be null");
		if (this.operations.templateName() == null) {
			logger.warn("Model Armor verdicts are not cached, the client does not name the template a verdict "
					+ "depends on: client=" + this.operations.getClass().getName() + " cache=" + cache.name());
		}
		return new WindowedScreening(this.operations, this.windows, this.executor, false, cache);
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

	private Item prompt(String prompt) {
		Objects.requireNonNull(prompt, "prompt must not be null");
		return new Item(VerdictKey.USER_PROMPT, "prompt", prompt, null,
				nonNull("sanitizeUserPrompt(String)", this.operations::sanitizeUserPrompt),
				(window) -> this.operations.sanitizeUserPromptAsync(DataItem.text(window), SanitizeOptions.NONE,
						this.executor.asExecutor()));
	}

	private Item response(String response, @Nullable String userPrompt) {
		Objects.requireNonNull(response, "response must not be null");
		String context = (userPrompt != null) ? TextWindows.tail(userPrompt, this.windows.overlap()) : "";
		Function<String, SanitizationResult> call = context.isEmpty()
				? nonNull("sanitizeModelResponse(String)", this.operations::sanitizeModelResponse)
				: nonNull("sanitizeModelResponse(String, String)",
						(window) -> this.operations.sanitizeModelResponse(window, context));
		String prompt = context.isEmpty() ? null : context;
		return new Item(VerdictKey.MODEL_RESPONSE, "model response", response, userPrompt, call,
				(window) -> this.operations.sanitizeModelResponseAsync(DataItem.text(window), prompt, SanitizeOptions.NONE,
						this.executor.asExecutor()));
	}

	/** The verdict of a whole text from the cache, or its screening on this thread (stored when it may be). */
	private SanitizationResult blocking(Item item) {
		Lookup lookup = lookup(item);
		SanitizationResult cached = lookup.cached();
		if (cached != null) {
			return cached;
		}
		List<Window> parts = windowsOf(item);
		SanitizationResult result = (parts != null) ? new Run(item, parts).await() : item.call().apply(item.text());
		return lookup.store(result);
	}

	/**
	 * The same on the executor: the cache lookup and a single call run there; the windows of a longer text
	 * are each a task, and nothing waits for them.
	 */
	private CompletableFuture<SanitizationResult> async(Item item) {
		List<Window> parts;
		try {
			parts = windowsOf(item);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (this.operations.isNonBlocking()) {
			return nonBlocking(item, parts);
		}
		if (parts == null) {
			return onExecutor(() -> blocking(item));
		}
		return onExecutor(() -> lookup(item)).thenCompose((lookup) -> {
			SanitizationResult cached = lookup.cached();
			return (cached != null) ? CompletableFuture.completedFuture(cached)
					: new Run(item, parts).start().thenApply(lookup::store);
		});
	}

	/**
	 * Over a client with a non-blocking path: no thread is held while a window's call is in flight. Only the
	 * cache, whose API blocks, is asked on the executor, before and after the calls.
	 */
	private CompletableFuture<SanitizationResult> nonBlocking(Item item, @Nullable List<Window> parts) {
		boolean cached = this.cache != null && this.operations.templateName() != null;
		if (!cached) {
			return (parts != null) ? new Run(item, parts, true).start() : item.asyncCall().apply(item.text());
		}
		CompletableFuture<Lookup> looked = onExecutor(() -> lookup(item));
		CompletableFuture<SanitizationResult> screened = new CompletableFuture<>();
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
			CompletableFuture<SanitizationResult> calls = (parts != null) ? new Run(item, parts, true).start()
					: item.asyncCall().apply(item.text());
			cancelWith(screened, calls);
			calls.whenComplete((result, callFailure) -> {
				if (callFailure != null) {
					screened.completeExceptionally(callFailure);
				}
				else {
					onExecutor(() -> lookup.store(result)).whenComplete((stored, storeFailure) -> screened.complete(result));
				}
			});
		});
		return screened;
	}

	private static void cancelWith(CompletableFuture<?> outer, CompletableFuture<?> inner) {
		outer.whenComplete((done, failure) -> {
			if (outer.isCancelled()) {
				inner.cancel(true);
			}
		});
	}

	private <T> CompletableFuture<T> onExecutor(Supplier<T> work) {
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

	/**
	 * Looks a whole text up in the cache. A failure or a refusal of the input is an exception and never
	 * reaches the cache.
	 */
	private Lookup lookup(Item item) {
		VerdictCache verdicts = this.cache;
		String templateName = (verdicts != null) ? this.operations.templateName() : null;
		if (verdicts == null || templateName == null) {
			return new Lookup(null, null, null, 0);
		}
		VerdictKey key = VerdictKey.of(templateName, item.operation(), this.windows, item.text(), item.userPrompt());
		SanitizationResult cached = verdicts.get(key);
		return new Lookup(verdicts, key, cached, (cached != null) ? 0 : verdicts.generation());
	}

	/** The windows of a text, or {@code null} when it is one call. */
	private @Nullable List<Window> windowsOf(Item item) {
		String text = item.text();
		if (text.length() <= this.windows.size() / NormalizedUtf8.MAX_CODE_POINT_COST) {
			// Too short to need a window boundary whatever its characters: no need to measure it.
			return null;
		}
		Plan plan = TextWindows.split(text, this.windows);
		if (!plan.complete()) {
			throw tooLarge(item.what(), text, plan);
		}
		return (plan.windows().size() == 1) ? null : plan.windows();
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

	private static boolean stopsEarly(SanitizationResult result) {
		Verdict verdict = result.verdict();
		return verdict == Verdict.NOT_SCREENED || (verdict == Verdict.MATCHED && !SdpOnly.matched(result));
	}

	/**
	 * One text to screen: the cache's name of the operation, the name log lines and refusals use, the text,
	 * the prompt it answers (for a response) and the client's call for one window.
	 */
	private record Item(String operation, String what, String text, @Nullable String userPrompt,
			Function<String, SanitizationResult> call, Function<String, CompletableFuture<SanitizationResult>> asyncCall) {
	}

	/** A cache lookup: the verdict found, or where to store the one screened. */
	private record Lookup(@Nullable VerdictCache cache, @Nullable VerdictKey key, @Nullable SanitizationResult cached,
			long generation) {

		SanitizationResult store(SanitizationResult result) {
			VerdictCache verdicts = this.cache;
			VerdictKey verdictKey = this.key;
			if (verdicts != null && verdictKey != null) {
				verdicts.put(verdictKey, result, this.generation);
			}
			return result;
		}

	}

	/**
	 * The screening of one text: its windows, their results, and the calls in flight. Every change of its
	 * state happens under its lock, by the thread that starts it or the one whose window just ended.
	 */
	private final class Run {

		private final Item item;

		private final List<Window> parts;

		private final @Nullable SanitizationResult[] results;

		private final List<Sent> inFlight = new ArrayList<>();

		/** Whether each window is a call of the client's non-blocking path rather than a task of the executor. */
		private final boolean nonBlocking;

		private final CompletableFuture<SanitizationResult> merged = new CompletableFuture<>();

		/** Set when the run stops; a window that starts afterwards is not sent. */
		private volatile boolean stopped;

		private final AtomicInteger sent = new AtomicInteger();

		private int next;

		private @Nullable Throwable failure;

		/** The thread that started the run: a window it runs itself is never interrupted. */
		private @Nullable Thread starter;

		Run(Item item, List<Window> parts) {
			this(item, parts, false);
		}

		Run(Item item, List<Window> parts, boolean nonBlocking) {
			this.nonBlocking = nonBlocking;
			this.item = item;
			this.parts = parts;
			this.results = new SanitizationResult[parts.size()];
		}

		/** Sends the first windows; the future completes when the last one needed has answered. */
		synchronized CompletableFuture<SanitizationResult> start() {
			this.starter = Thread.currentThread();
			this.merged.whenComplete((result, failure) -> {
				if (this.merged.isCancelled()) {
					synchronized (this) {
						cancelInFlight();
					}
				}
			});
			sendWhileRoom();
			return this.merged;
		}

		/** Sends the windows and waits for their merged result, on the calling thread. */
		SanitizationResult await() {
			CompletableFuture<SanitizationResult> result = start();
			try {
				return result.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				ModelArmorException abandoned = abandoned("was interrupted", ex);
				stop(abandoned);
				throw abandoned;
			}
			catch (ExecutionException ex) {
				throw rethrow(ex.getCause());
			}
		}

		private void sendWhileRoom() {
			while (this.next < this.parts.size()
					&& this.inFlight.size() < WindowedScreening.this.windows.parallelism() && !this.stopped) {
				if (this.nonBlocking) {
					sendNonBlocking(this.next++);
					continue;
				}
				WindowTask task = new WindowTask(this.next++);
				this.inFlight.add(task);
				try {
					WindowedScreening.this.executor.execute(task);
				}
				catch (RejectedExecutionException ex) {
					this.inFlight.remove(task);
					stop(abandoned("was abandoned: the windowed screening is closed", ex));
					return;
				}
			}
			if (this.inFlight.isEmpty() && !this.stopped) {
				finish();
			}
		}

		/** One window as a call of the non-blocking path; its answer comes back as the tasks' do. */
		private void sendNonBlocking(int index) {
			this.sent.incrementAndGet();
			CompletableFuture<SanitizationResult> call;
			try {
				call = this.item.asyncCall().apply(this.parts.get(index).of(this.item.text()));
			}
			catch (RuntimeException | Error ex) {
				call = CompletableFuture.failedFuture(ex);
			}
			CompletableFuture<SanitizationResult> inFlightCall = call;
			Sent window = (starter) -> inFlightCall.cancel(true);
			this.inFlight.add(window);
			call.whenComplete((result, failure) -> answered(window, new Answer(index, result,
					(failure != null) ? unwrap(failure) : null)));
		}

		private synchronized void answered(Sent task, Answer answer) {
			this.inFlight.remove(task);
			if (this.stopped) {
				return;
			}
			if (answer.failure() != null) {
				this.failure = answer.failure();
				finish();
				return;
			}
			SanitizationResult result = answer.result();
			if (result != null) {
				this.results[answer.index()] = result;
				if (stopsEarly(result)) {
					finish();
					return;
				}
			}
			sendWhileRoom();
		}

		/** Stops the run without a result: the caller gave up, or no window could be sent. */
		private synchronized void stop(ModelArmorException why) {
			if (!this.stopped) {
				cancelInFlight();
				this.merged.completeExceptionally(why);
			}
		}

		private void finish() {
			cancelInFlight();
			try {
				this.merged.complete(decide(this.failure));
			}
			catch (RuntimeException | Error ex) {
				this.merged.completeExceptionally(ex);
			}
		}

		private void cancelInFlight() {
			this.stopped = true;
			for (Sent task : List.copyOf(this.inFlight)) {
				task.stop(this.starter);
			}
			this.inFlight.clear();
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
			SanitizationResult result = WindowMerge.merge(this.item.text(), this.parts, this.results);
			if (logger.isDebugEnabled()) {
				logger.debug("Model Armor windowed screening: item=\"" + this.item.what() + "\" windows="
						+ this.parts.size() + " sent=" + this.sent.get() + " verdict="
						+ result.verdict().name().toLowerCase(Locale.ROOT));
			}
			return result;
		}

		private Answer screenWindow(int index) {
			if (this.stopped) {
				return new Answer(index, null, null);
			}
			try {
				this.sent.incrementAndGet();
				return new Answer(index, this.item.call().apply(this.parts.get(index).of(this.item.text())), null);
			}
			catch (RuntimeException | Error ex) {
				return new Answer(index, null, ex);
			}
		}

		private ModelArmorException abandoned(String how, Exception cause) {
			int answered = 0;
			synchronized (this) {
				for (SanitizationResult result : this.results) {
					answered += (result != null) ? 1 : 0;
				}
			}
			return new ModelArmorException("The windowed screening of a " + this.item.what() + " " + how + " after "
					+ answered + " of " + this.parts.size() + " windows", 0, cause, CallOutcome.INTERRUPTED);
		}

		/** One window's call, as a task of the executor that tells the run when it ends. */
		private final class WindowTask extends FutureTask<Answer> implements Sent {

			private volatile @Nullable Thread runner;

			WindowTask(int index) {
				super(() -> screenWindow(index));
			}

			@Override
			public void stop(@Nullable Thread starter) {
				cancel(this.runner != starter);
			}

			@Override
			public void run() {
				this.runner = Thread.currentThread();
				super.run();
			}

			@Override
			protected void done() {
				if (isCancelled()) {
					return;
				}
				try {
					answered(this, get());
				}
				catch (InterruptedException | ExecutionException ex) {
					// Unreachable: the task is done and returns its failure instead of throwing it.
					answered(this, new Answer(-1, null, new IllegalStateException("A window's task failed", ex)));
				}
			}

		}

	}

	/** A window sent and not yet answered, which the run can stop. */
	@FunctionalInterface
	private interface Sent {

		/**
		 * Stops the window's call.
		 * @param starter the thread that started the run, never interrupted
		 */
		void stop(@Nullable Thread starter);

	}

	private static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	private static RuntimeException rethrow(@Nullable Throwable failure) {
		Throwable cause = (failure instanceof CompletionException completion && completion.getCause() != null)
				? completion.getCause() : failure;
		if (cause instanceof Error error) {
			throw error;
		}
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		return new IllegalStateException("A window's task failed", cause);
	}

	/**
	 * What one window's task came back with: its result, or the failure of its call, or neither when it
	 * was not sent because the run had stopped.
	 */
	private record Answer(int index, @Nullable SanitizationResult result, @Nullable Throwable failure) {
	}

}
