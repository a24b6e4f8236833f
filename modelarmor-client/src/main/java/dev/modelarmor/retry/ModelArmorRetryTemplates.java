package dev.modelarmor.retry;

import java.time.Duration;
import java.util.function.Function;

import dev.modelarmor.internal.ListenedRetryTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.support.RetryTemplate;

/**
 * Builds the spring-retry {@link RetryTemplate} that carries out Google's retry strategy for Model
 * Armor calls, and runs a call's attempts on it with what the strategy knows passed as parameters.
 */
public final class ModelArmorRetryTemplates {

	private ModelArmorRetryTemplates() {
	}

	/**
	 * A template that retries as the settings say, with its own retry budget when the settings have one.
	 * @param settings the schedule, deadline and classification
	 * @param runtime the clock, sleeper and random source
	 * @return a new template
	 */
	public static RetryTemplate retrying(RetrySettings settings, RetryRuntime runtime) {
		return retrying(settings, runtime, RetryPolicies.budgetOf(settings, runtime));
	}

	/**
	 * A template that retries as the settings say, drawing on the given retry budget (a budget made
	 * outside, so that its tokens can be a gauge and both paths share it).
	 * @param settings the schedule, deadline and classification; their budget settings are not used
	 * @param runtime the clock, sleeper and random source
	 * @param budget the budget, or {@code null} for none
	 * @return a new template
	 */
	public static RetryTemplate retrying(RetrySettings settings, RetryRuntime runtime, @Nullable RetryBudget budget) {
		return template(RetryPolicies.retrying(settings, runtime, budget));
	}

	/**
	 * A template that makes one attempt only, still bounding it by the deadline.
	 * @param settings the settings whose deadline bounds the attempt
	 * @param runtime the clock
	 * @return a new template
	 */
	public static RetryTemplate singleAttempt(RetrySettings settings, RetryRuntime runtime) {
		return template(RetryPolicies.singleAttempt(settings, runtime));
	}

	private static RetryTemplate template(RetryPolicies policies) {
		RetryTemplate template = new ListenedRetryTemplate();
		template.setRetryPolicy(policies.retry());
		template.setBackOffPolicy(policies.backOff());
		template.setThrowLastExceptionOnExhausted(true);
		return template;
	}

	/**
	 * Runs a call's attempts on a template: each attempt is given its number, the time waited so far, the
	 * call's deadline and the previous attempt's failure, and the call ends with a value that says how
	 * it ended. An attempt fails by throwing; the template decides whether another one follows.
	 * @param template a template from {@link #retrying} or {@link #singleAttempt}, possibly customized
	 * @param attempt makes one attempt and returns its answer, or throws its failure
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped
	 * @throws BackOffInterruptedException when a wait before a retry was cut short (shutdown or
	 * interrupt)
	 */
	public static <T> Retried<T> execute(RetryTemplate template, Function<Attempt, T> attempt) {
		return execute(template, CallLog.Call.start(null, null), attempt);
	}

	/**
	 * Runs a call's attempts on a template, as {@link #execute(RetryTemplate, Function)} does, with the
	 * retry strategy's log lines naming the call.
	 * @param template a template from {@link #retrying} or {@link #singleAttempt}, possibly customized
	 * @param call names the call in log lines
	 * @param attempt makes one attempt and returns its answer, or throws its failure
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped
	 * @throws BackOffInterruptedException when a wait before a retry was cut short (shutdown or
	 * interrupt)
	 */
	public static <T> Retried<T> execute(RetryTemplate template, CallLog.Call call, Function<Attempt, T> attempt) {
		return execute(template, call, RetryBudget.NO_LOCATION, attempt);
	}

	/**
	 * Runs a call's attempts on a template, as {@link #execute(RetryTemplate, CallLog.Call, Function)} does,
	 * drawing on the retry budget of the location the attempts go to.
	 * @param template a template from {@link #retrying} or {@link #singleAttempt}, possibly customized
	 * @param call names the call in log lines
	 * @param location the location the call's attempts go to, e.g. {@code us-central1}
	 * @param attempt makes one attempt and returns its answer, or throws its failure
	 * @param <T> the type of the answer
	 * @return the answer, or the last attempt's failure and why retrying stopped
	 * @throws BackOffInterruptedException when a wait before a retry was cut short (shutdown or
	 * interrupt)
	 */
	public static <T> Retried<T> execute(RetryTemplate template, CallLog.Call call, String location,
			Function<Attempt, T> attempt) {
		CallRun run = new CallRun(call, location);
		// the callback returns the answer itself, so that listeners registered by customizers see it
		T answer = template.execute((context) -> {
			T answered = attempt.apply(run.next(context));
			RetryRecords.answered(context);
			return answered;
		}, (context) -> {
			run.exhausted(context);
			return null;
		});
		return run.ended(answer);
	}

	/** What {@link #execute} (or the non-blocking path, {@link ModelArmorAsyncRetries}) learns while one call runs. */
	static final class CallRun {

		private @Nullable Attempt last;

		private boolean exhausted;

		private @Nullable Throwable failure;

		private CallOutcome stop = CallOutcome.NON_RETRYABLE;

		private Duration backoff = Duration.ZERO;

		private final CallLog.Call call;

		private final String location;

		CallRun(CallLog.Call call, String location) {
			this.call = call;
			this.location = location;
		}

		Attempt next(RetryContext context) {
			RetryRecords.named(context, this.call);
			RetryRecords.located(context, this.location);
			Attempt attempt = new Attempt(context.getRetryCount() + 1, RetryRecords.backoff(context),
					RetryRecords.deadline(context), context.getLastThrowable());
			this.last = attempt;
			this.backoff = attempt.backoff();
			return attempt;
		}

		void exhausted(RetryContext context) {
			this.exhausted = true;
			this.failure = context.getLastThrowable();
			this.stop = RetryRecords.failureOutcome(context);
			this.backoff = RetryRecords.backoff(context);
		}

		<T> Retried<T> ended(@Nullable T answer) {
			if (this.exhausted) {
				Throwable last = (this.failure != null) ? this.failure
						: new IllegalStateException("Model Armor call ended before its first attempt");
				return new Retried<>(null, last, this.stop, this.backoff);
			}
			boolean retried = this.last != null && this.last.number() > 1;
			return new Retried<>(answer, null, retried ? CallOutcome.SUCCESS_AFTER_RETRY : CallOutcome.SUCCESS,
					this.backoff);
		}

	}

	/**
	 * One attempt of a call, as the strategy hands it over.
	 *
	 * @param number the attempt's number, from 1
	 * @param backoff the time the call has waited between attempts so far
	 * @param deadline the call's deadline, or {@code null} when the template's back-off policy is not the
	 * starter's
	 * @param previousFailure the failure of the previous attempt, or {@code null} for the first
	 */
	public record Attempt(int number, Duration backoff, @Nullable RetryDeadline deadline,
			@Nullable Throwable previousFailure) {
	}

	/**
	 * How a retried call ended.
	 *
	 * @param answer the answer of the last attempt, or {@code null} when it failed
	 * @param failure the failure of the last attempt, or {@code null} when it answered
	 * @param outcome {@link CallOutcome#SUCCESS} or {@link CallOutcome#SUCCESS_AFTER_RETRY} with an answer,
	 * else why retrying stopped ({@link CallOutcome#NON_RETRYABLE} for a failure not worth retrying)
	 * @param backoff the time the call waited between attempts
	 * @param <T> the type of the answer
	 */
	public record Retried<T>(@Nullable T answer, @Nullable Throwable failure, CallOutcome outcome, Duration backoff) {
	}

}
