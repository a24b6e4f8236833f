package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.screening.WindowCutter.Window;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The screening of one text's windows: at most {@link WindowSettings#parallelism()} in flight, each a
 * task of the executor or a call of the client's non-blocking path, stopping at the first window that
 * cannot be screened or matches a filter other than {@code sdp}, the results merged by {@link WindowMerge}.
 * Every change of its state happens under its lock, by the thread that starts it or the one whose window
 * just ended. Used once.
 */
final class WindowRun {

	// The long-text screening's own log category: this is where its windows are screened.
	private static final Log logger = LogFactory.getLog(LongTextScreening.class);

	private final LongText text;

	private final List<Window> parts;

	private final int parallelism;

	/** Where each window is a task, or {@code null} when each is a call of the client's non-blocking path. */
	private final @Nullable ModelArmorTaskExecutor executor;

	private final @Nullable SanitizationResult[] results;

	private final List<Sent> inFlight = new ArrayList<>();

	private final CompletableFuture<SanitizationResult> merged = new CompletableFuture<>();

	/** Set when the run stops; a window that starts afterwards is not sent. */
	private volatile boolean stopped;

	private final AtomicInteger sent = new AtomicInteger();

	private int next;

	private @Nullable Throwable failure;

	/** The thread that started the run: a window it runs itself is never interrupted. */
	private @Nullable Thread starter;

	private WindowRun(LongText text, List<Window> parts, int parallelism,
			@Nullable ModelArmorTaskExecutor executor) {
		this.text = text;
		this.parts = parts;
		this.parallelism = parallelism;
		this.executor = executor;
		this.results = new SanitizationResult[parts.size()];
	}

	/**
	 * A run whose windows are each a task of an executor, a blocking call of the client.
	 * @param text the text
	 * @param parts its windows
	 * @param parallelism the most windows in flight
	 * @param executor where windows run
	 * @return the run, not started
	 */
	static WindowRun onExecutor(LongText text, List<Window> parts, int parallelism,
			ModelArmorTaskExecutor executor) {
		return new WindowRun(text, parts, parallelism, executor);
	}

	/**
	 * A run whose windows are each a call of the client's non-blocking path: no thread waits for one.
	 * @param text the text
	 * @param parts its windows
	 * @param parallelism the most windows in flight
	 * @return the run, not started
	 */
	static WindowRun nonBlocking(LongText text, List<Window> parts, int parallelism) {
		return new WindowRun(text, parts, parallelism, null);
	}

	/**
	 * Sends the first windows; the future completes when the last one needed has answered. Cancelling it
	 * cancels the windows in flight.
	 * @return the merged result
	 */
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

	/**
	 * Sends the windows and waits for their merged result, on the calling thread; when it is interrupted
	 * the windows in flight are cancelled.
	 * @return the merged result
	 * @throws ModelArmorException when a window could not be screened and none matched, or the wait was
	 * interrupted
	 */
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
		while (this.next < this.parts.size() && this.inFlight.size() < this.parallelism && !this.stopped) {
			ModelArmorTaskExecutor tasks = this.executor;
			if (tasks == null) {
				sendNonBlocking(this.next++);
				continue;
			}
			WindowTask task = new WindowTask(this.next++);
			this.inFlight.add(task);
			try {
				tasks.execute(task);
			}
			catch (RejectedExecutionException ex) {
				this.inFlight.remove(task);
				stop(abandoned("was abandoned: the long-text screening is closed", ex));
				return;
			}
		}
		if (this.inFlight.isEmpty() && !this.stopped) {
			finish();
		}
	}

	/** One window as a call of the non-blocking path; its answer comes back as the tasks' do. */
	private void sendNonBlocking(int index) {
		CompletableFuture<SanitizationResult> call;
		try {
			call = this.text.asyncCall().apply(send(index));
		}
		catch (RuntimeException | Error ex) {
			call = CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<SanitizationResult> inFlightCall = call;
		Sent window = (starter) -> inFlightCall.cancel(true);
		this.inFlight.add(window);
		call.whenComplete((result, failure) -> answered(window, new Answer(index, result,
				(failure != null) ? Futures.unwrap(failure) : null)));
	}

	/** One window as a blocking call, on the thread of its task. */
	private Answer screenWindow(int index) {
		if (this.stopped) {
			return new Answer(index, null, null);
		}
		try {
			return new Answer(index, this.text.call().apply(send(index)), null);
		}
		catch (RuntimeException | Error ex) {
			return new Answer(index, null, ex);
		}
	}

	/** The text of a window about to be sent, counted as sent. */
	private String send(int index) {
		this.sent.incrementAndGet();
		return this.parts.get(index).of(this.text.text());
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

	/** The merged result, or the failure of a window when none matched. */
	private SanitizationResult decide(@Nullable Throwable failure) {
		SanitizationResult result = WindowMerge.merge(this.text.text(), this.parts, this.results, failure);
		if (logger.isDebugEnabled()) {
			logger.debug("Model Armor long-text screening: item=\"" + this.text.what() + "\" windows="
					+ this.parts.size() + " sent=" + this.sent.get() + " verdict="
					+ result.verdict().name().toLowerCase(Locale.ROOT));
		}
		return result;
	}

	private ModelArmorException abandoned(String how, Exception cause) {
		int answered = 0;
		synchronized (this) {
			for (SanitizationResult result : this.results) {
				answered += (result != null) ? 1 : 0;
			}
		}
		return new ModelArmorException("The long-text screening of a " + this.text.what() + " " + how + " after "
				+ answered + " of " + this.parts.size() + " windows", 0, cause, CallOutcome.INTERRUPTED);
	}

	private static boolean stopsEarly(SanitizationResult result) {
		Verdict verdict = result.verdict();
		return verdict == Verdict.NOT_SCREENED || (verdict == Verdict.MATCHED && !SdpOnly.matched(result));
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

	/** A window sent and not yet answered, which the run can stop. */
	@FunctionalInterface
	private interface Sent {

		/**
		 * Stops the window's call.
		 * @param starter the thread that started the run, never interrupted
		 */
		void stop(@Nullable Thread starter);

	}

	/**
	 * What one window's call came back with: its result, or its failure, or neither when it was not sent
	 * because the run had stopped.
	 */
	private record Answer(int index, @Nullable SanitizationResult result, @Nullable Throwable failure) {
	}

}
