package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.modelarmor.internal.Futures;
import dev.modelarmor.internal.ListenedRetryTemplate;
import dev.modelarmor.retry.ModelArmorRetryTemplates.Attempt;
import dev.modelarmor.retry.ModelArmorRetryTemplates.Retried;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.TerminatedRetryException;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.support.RetryTemplate;

/**
 * Google's retry strategy for the non-blocking path: the same policies as the blocking path's
 * {@code RetryTemplate} ({@link ModelArmorRetryTemplates}: the same classification, budget, waits, server
 * hints, deadline and log lines), but each wait is scheduled with the runtime's {@link RetryDelayer}
 * instead of slept, and each attempt is a future. No thread is held between attempts.
 *
 * <p>The {@code RetryListener}s registered on the blocking path's template (by a
 * {@code ModelArmorRetryCustomizer}, say) hear these calls too once {@link #listenedBy} names that template:
 * {@code open} before the first attempt, {@code onError} after each failed one, {@code onSuccess} and
 * {@code close} at the end, in spring-retry's order, on the thread that completed the step (their
 * {@code RetryCallback} is a stand-in that cannot be called: the attempts are futures). A retry or back-off
 * policy set on that template does not apply here: these retries keep the starter's. Thread-safe; one
 * instance serves every call of a client.
 */
public final class ModelArmorAsyncRetries {

	/** How long after its deadline a call still running is ended: the attempt that ends at the deadline. */
	static final Duration DEADLINE_GRACE = Duration.ofSeconds(1);

	/** What the listeners are given as the call's callback: the attempts are futures, not a callback. */
	private static final RetryCallback<Object, RuntimeException> ATTEMPTS_ARE_FUTURES = (context) -> {
		throw new UnsupportedOperationException("The non-blocking path's attempts are futures: this callback is not called");
	};

	private final RetryPolicies policies;

	private final List<RetryListener> listeners;

	private ModelArmorAsyncRetries(RetryPolicies policies) {
		this(policies, List.of());
	}

	private ModelArmorAsyncRetries(RetryPolicies policies, List<RetryListener> listeners) {
		this.policies = policies;
		this.listeners = listeners;
	}

	/**
	 * The same retries, telling the listeners registered on a template of
	 * {@link ModelArmorRetryTemplates} (now and later) of every call. A template made otherwise does not let
	 * its listeners be read: these retries then tell none.
	 * @param template the blocking path's template
	 * @return the retries
	 */
	public ModelArmorAsyncRetries listenedBy(RetryTemplate template) {
		return (template instanceof ListenedRetryTemplate listened)
				? new ModelArmorAsyncRetries(this.policies, listened.listeners()) : this;
	}

	/**
	 * Retries as the settings say, with a retry budget of its own when the settings have one.
	 * @param settings the schedule, deadline and classification
	 * @param runtime the clock, delayer and random source
	 * @return the retries
	 */
	public static ModelArmorAsyncRetries retrying(RetrySettings settings, RetryRuntime runtime) {
		return retrying(settings, runtime, RetryPolicies.budgetOf(settings, runtime));
	}

	/**
	 * Retries as the settings say, drawing on the given budget: pass the one the blocking path's template
	 * draws on, so that both paths spend one budget.
	 * @param settings the schedule, deadline and classification; their budget settings are not used
	 * @param runtime the clock, delayer and random source
	 * @param budget the budget, or {@code null} for none
	 * @return the retries
	 */
	public static ModelArmorAsyncRetries retrying(RetrySettings settings, RetryRuntime runtime,
			@Nullable RetryBudget budget) {
		return new ModelArmorAsyncRetries(RetryPolicies.retrying(settings, runtime, budget));
	}

	/**
	 * One attempt only, still bounded by the deadline.
	 * @param settings the settings whose deadline bounds the attempt
	 * @param runtime the clock
	 * @return the retries
	 */
	public static ModelArmorAsyncRetries singleAttempt(RetrySettings settings, RetryRuntime runtime) {
		return new ModelArmorAsyncRetries(RetryPolicies.singleAttempt(settings, runtime));
	}

	/**
	 * Runs a call's attempts, as {@link ModelArmorRetryTemplates#execute} does on the calling thread. An
	 * attempt fails by failing its future. Cancelling the returned future cancels the attempt in flight or
	 * the wait, and starts no other attempt.
	 * @param attempt starts one attempt
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped; fails with a
	 * {@link BackOffInterruptedException} when a wait was cut short
	 */
	public <T> CompletableFuture<Retried<T>> execute(Function<Attempt, CompletableFuture<T>> attempt) {
		return execute(CallLog.Call.start(null, null), attempt);
	}

	/**
	 * Runs a call's attempts, as {@link #execute(Function)} does, with the retry strategy's log lines naming
	 * the call.
	 * @param call names the call in log lines
	 * @param attempt starts one attempt
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped
	 */
	public <T> CompletableFuture<Retried<T>> execute(CallLog.Call call, Function<Attempt, CompletableFuture<T>> attempt) {
		return execute(call, RetryBudget.NO_LOCATION, attempt);
	}

	/**
	 * Runs a call's attempts, as {@link #execute(CallLog.Call, Function)} does, drawing on the retry budget
	 * of the location the attempts go to.
	 * @param call names the call in log lines
	 * @param location the location the call's attempts go to, e.g. {@code us-central1}
	 * @param attempt starts one attempt
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped
	 */
	public <T> CompletableFuture<Retried<T>> execute(CallLog.Call call, String location,
			Function<Attempt, CompletableFuture<T>> attempt) {
		Run<T> run = new Run<>(call, location, attempt);
		if (run.opened()) {
			run.next();
		}
		return run.result;
	}

	/**
	 * Completes once the longest a call may take has passed in real time, its deadline and
	 * {@link #DEADLINE_GRACE}: the non-blocking path ends a call still running then, whatever held it (an
	 * exchange queued in the transport, a timer that fell behind). Cancel it when the call ends.
	 * @return the future
	 */
	public CompletableFuture<Void> pastDeadline() {
		return pastDeadline(RetryDelayer.scheduled());
	}

	/**
	 * Completes once the longest a call may take has passed in real time, as {@link #pastDeadline()} does, on
	 * the timer given (the client's own, ended with it).
	 * @param timer a timer of real time
	 * @return the future
	 */
	public CompletableFuture<Void> pastDeadline(RetryDelayer timer) {
		return timer.delay(this.policies.backOff().deadline().plus(DEADLINE_GRACE));
	}

	/** One call on its way through the attempts; its steps follow one another, never overlap. */
	private final class Run<T> {

		private final Function<Attempt, CompletableFuture<T>> attempt;

		private final CompletableFuture<Retried<T>> result = new CompletableFuture<>();

		private final ModelArmorRetryTemplates.CallRun call;

		private final RetryContext context;

		private final BackOffContext backOff;

		private volatile @Nullable CompletableFuture<?> inFlight;

		/** The listeners are told once that the call ended. */
		private final AtomicBoolean closed = new AtomicBoolean();

		Run(CallLog.Call call, String location, Function<Attempt, CompletableFuture<T>> attempt) {
			this.call = new ModelArmorRetryTemplates.CallRun(call, location);
			this.attempt = attempt;
			this.context = ModelArmorAsyncRetries.this.policies.retry().open(null);
			this.backOff = ModelArmorAsyncRetries.this.policies.backOff().start(this.context);
			this.result.whenComplete((retried, failure) -> {
				CompletableFuture<?> current = this.inFlight;
				if (this.result.isCancelled()) {
					closed(this.context.getLastThrowable());
					if (current != null) {
						current.cancel(true);
					}
				}
			});
		}

		void next() {
			if (this.result.isDone()) {
				return;
			}
			CompletableFuture<T> answer;
			try {
				answer = this.attempt.apply(this.call.next(this.context));
			}
			catch (RuntimeException | Error ex) {
				answer = CompletableFuture.failedFuture(ex);
			}
			track(answer);
			answer.whenComplete(this::attempted);
		}

		private void attempted(@Nullable T answer, @Nullable Throwable failure) {
			if (this.result.isDone()) {
				return;
			}
			if (failure == null) {
				RetryRecords.answered(this.context);
				if (tell((listener) -> listener.onSuccess(this.context, ATTEMPTS_ARE_FUTURES, answer))) {
					closed(null);
					this.result.complete(this.call.ended(answer));
				}
				return;
			}
			Throwable cause = Futures.unwrap(failure);
			ModelArmorAsyncRetries.this.policies.retry().registerThrowable(this.context, cause);
			if (!tell((listener) -> listener.onError(this.context, ATTEMPTS_ARE_FUTURES, cause))) {
				return;
			}
			if (!canRetry()) {
				exhausted();
				return;
			}
			Duration wait = ModelArmorAsyncRetries.this.policies.backOff().nextWait(this.backOff);
			if (wait == null) {
				exhausted();
				return;
			}
			CompletableFuture<Void> waited;
			try {
				waited = ModelArmorAsyncRetries.this.policies.backOff().runtime().delayer().delay(wait);
			}
			catch (RuntimeException ex) {
				waited = CompletableFuture.failedFuture(ex);
			}
			track(waited);
			waited.whenComplete((done, cut) -> {
				if (cut != null) {
					if (!(Futures.unwrap(cut) instanceof CancellationException)) {
						ModelArmorAsyncRetries.this.policies.backOff().interrupted(this.backOff, wait,
								"the application is shutting down");
						closed(Futures.unwrap(cut));
						this.result.completeExceptionally(new BackOffInterruptedException(
								"Model Armor retries stopped while waiting to retry: " + Futures.unwrap(cut).getMessage(), Futures.unwrap(cut)));
					}
					return;
				}
				RetryRecords.waited(this.context, wait);
				// spring-retry asks again before the next attempt: the budget may have drained meanwhile
				if (canRetry()) {
					next();
				}
				else {
					exhausted();
				}
			});
		}

		/** The listeners' {@code open}: any of them may veto the call, as spring-retry lets them. */
		boolean opened() {
			for (RetryListener listener : ModelArmorAsyncRetries.this.listeners) {
				boolean open;
				try {
					open = listener.open(this.context, ATTEMPTS_ARE_FUTURES);
				}
				catch (RuntimeException | Error ex) {
					this.result.completeExceptionally(ex);
					return false;
				}
				if (!open) {
					this.result.completeExceptionally(
							new TerminatedRetryException("Retry terminated abnormally by interceptor before first attempt"));
					return false;
				}
			}
			return true;
		}

		/**
		 * Tells each listener, last registered first (spring-retry's order after {@code open}); a listener that
		 * fails ends the call with its failure, as it would the blocking path's.
		 * @return whether the call goes on
		 */
		private boolean tell(Consumer<RetryListener> event) {
			List<RetryListener> listeners = ModelArmorAsyncRetries.this.listeners;
			try {
				for (int i = listeners.size() - 1; i >= 0; i--) {
					event.accept(listeners.get(i));
				}
				return true;
			}
			catch (RuntimeException | Error ex) {
				closed(ex);
				this.result.completeExceptionally(ex);
				return false;
			}
		}

		private void closed(@Nullable Throwable last) {
			if (this.closed.getAndSet(true)) {
				return;
			}
			ModelArmorAsyncRetries.this.policies.retry().close(this.context);
			List<RetryListener> listeners = ModelArmorAsyncRetries.this.listeners;
			for (int i = listeners.size() - 1; i >= 0; i--) {
				try {
					listeners.get(i).close(this.context, ATTEMPTS_ARE_FUTURES, last);
				}
				catch (RuntimeException ex) {
					// the call has ended already: a listener that fails to close changes nothing
				}
			}
		}

		private boolean canRetry() {
			return ModelArmorAsyncRetries.this.policies.retry().canRetry(this.context) && !this.context.isExhaustedOnly();
		}

		private void exhausted() {
			this.call.exhausted(this.context);
			closed(this.context.getLastThrowable());
			this.result.complete(this.call.ended(null));
		}

		private void track(CompletableFuture<?> step) {
			this.inFlight = step;
			if (this.result.isCancelled()) {
				step.cancel(true);
			}
		}

	}

}
