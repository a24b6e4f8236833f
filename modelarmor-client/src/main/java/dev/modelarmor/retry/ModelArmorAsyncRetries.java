package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.client.internal.Futures;
import dev.modelarmor.retry.ModelArmorRetryTemplates.Attempt;
import dev.modelarmor.retry.ModelArmorRetryTemplates.Retried;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;

/**
 * Google's retry strategy for the non-blocking path: the same policies as the blocking path's
 * {@code RetryTemplate} ({@link ModelArmorRetryTemplates}: the same classification, budget, waits, server
 * hints, deadline and log lines), but each wait is scheduled with the runtime's {@link RetryDelayer}
 * instead of slept, and each attempt is a future. No thread is held between attempts.
 *
 * <p>A {@code RetryListener} or policy that a {@code ModelArmorRetryCustomizer} adds to the blocking
 * path's template does not apply here. Thread-safe; one instance serves every call of a client.
 */
public final class ModelArmorAsyncRetries {

	/** How long after its deadline a call still running is ended: the attempt that ends at the deadline. */
	static final Duration DEADLINE_GRACE = Duration.ofSeconds(1);

	private final RetryPolicies policies;

	private ModelArmorAsyncRetries(RetryPolicies policies) {
		this.policies = policies;
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
		Run<T> run = new Run<>(call, attempt);
		run.next();
		return run.result;
	}

	/**
	 * Completes once the longest a call may take has passed in real time, its deadline and
	 * {@link #DEADLINE_GRACE}: the non-blocking path ends a call still running then, whatever held it (an
	 * exchange queued in the transport, a timer that fell behind). Cancel it when the call ends.
	 * @return the future
	 */
	public CompletableFuture<Void> pastDeadline() {
		return RetryDelayer.scheduled().delay(this.policies.backOff().deadline().plus(DEADLINE_GRACE));
	}

	/** One call on its way through the attempts; its steps follow one another, never overlap. */
	private final class Run<T> {

		private final Function<Attempt, CompletableFuture<T>> attempt;

		private final CompletableFuture<Retried<T>> result = new CompletableFuture<>();

		private final ModelArmorRetryTemplates.CallRun call;

		private final RetryContext context;

		private final BackOffContext backOff;

		private volatile @Nullable CompletableFuture<?> inFlight;

		Run(CallLog.Call call, Function<Attempt, CompletableFuture<T>> attempt) {
			this.call = new ModelArmorRetryTemplates.CallRun(call);
			this.attempt = attempt;
			this.context = ModelArmorAsyncRetries.this.policies.retry().open(null);
			this.backOff = ModelArmorAsyncRetries.this.policies.backOff().start(this.context);
			this.result.whenComplete((retried, failure) -> {
				CompletableFuture<?> current = this.inFlight;
				if (this.result.isCancelled() && current != null) {
					current.cancel(true);
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
				this.result.complete(this.call.ended(answer));
				return;
			}
			Throwable cause = Futures.unwrap(failure);
			ModelArmorAsyncRetries.this.policies.retry().registerThrowable(this.context, cause);
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

		private boolean canRetry() {
			return ModelArmorAsyncRetries.this.policies.retry().canRetry(this.context) && !this.context.isExhaustedOnly();
		}

		private void exhausted() {
			this.call.exhausted(this.context);
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
