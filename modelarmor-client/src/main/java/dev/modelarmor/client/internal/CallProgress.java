package dev.modelarmor.client.internal;

import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallLog;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.internal.FailureClassifier;
import dev.modelarmor.retry.HttpFailure;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.TokenUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.web.client.ResourceAccessException;

/**
 * What one call has seen so far, on either path ({@link ApiCalls}, {@link AsyncApiCalls}): its attempts,
 * the status of its last answer, whether an earlier attempt may have been carried out although it failed, and the time spent waiting. It reports the
 * call to the observer once, when the call ends; an observer that fails is logged and never fails the
 * call.
 */
final class CallProgress {

	private static final Logger logger = LoggerFactory.getLogger(ApiCalls.class);

	private static final String UNTRUSTED_CERTIFICATE = ": its certificate was refused; name an SSL bundle that "
			+ "trusts it in modelarmor.http.ssl.bundle (or spring.http.clients.ssl.bundle)";

	private final String operation;

	private final @Nullable String template;

	private final ModelArmorCallObserver.@Nullable Call observed;

	/** Names the call in every log line about it, and in its final exception. */
	private final CallLog.Call call;

	String lastStatus = "none";

	private boolean earlierAttemptOutcomeUnknown;

	private int attempts;

	Duration backoff = Duration.ZERO;

	@Nullable ModelArmorException lastFailure;

	private boolean finished;

	CallProgress(String operation, @Nullable String template, @Nullable String location,
			ModelArmorCallObserver observer) {
		this.operation = operation;
		this.template = template;
		this.call = CallLog.Call.start(operation, template, location);
		this.observed = safely(this.call, () -> observer.start(operation, template));
	}

	/** The call as its log lines name it. */
	CallLog.Call call() {
		return this.call;
	}

	/** The template the call addresses, if any: configuration, never content. */
	@Nullable String template() {
		return this.template;
	}

	void beforeAttempt(@Nullable Throwable previousFailure) {
		// No answer at all, or a gateway's 502/504: the backend may have done the work.
		if (previousFailure != null && (!(previousFailure instanceof HttpFailure http)
				|| http.statusCode() == 502 || http.statusCode() == 504)) {
			this.earlierAttemptOutcomeUnknown = true;
		}
	}

	boolean earlierAttemptOutcomeUnknown() {
		return this.earlierAttemptOutcomeUnknown;
	}

	int attempting(int attempt, Duration backoffSoFar) {
		this.attempts = attempt;
		this.backoff = backoffSoFar;
		return attempt;
	}

	void answeredWith(int status) {
		this.lastStatus = String.valueOf(status);
	}

	void noAnswer() {
		this.lastStatus = "io_error";
	}

	/** The attempt was not sent: no access token came in time. */
	void noToken() {
		this.lastStatus = "token_unavailable";
	}

	void attemptFailed(int attempt, ModelArmorException failure) {
		this.lastFailure = failure;
		if (this.observed != null) {
			safely(this.call, () -> {
				this.observed.attemptFailed(attempt, FailureClassifier.describe(failure));
				return null;
			});
		}
	}

	/**
	 * The wait before a retry was cut short: the call ends with its last failure as the cause.
	 * @return the exception to throw, its outcome {@link CallOutcome#INTERRUPTED}
	 */
	ModelArmorException abandoned(BackOffInterruptedException interruption) {
		ModelArmorException abandoned = CallFailures.get()
			.identifiedAs(new ModelArmorException("Model Armor call abandoned while waiting to retry ("
					+ interruption.getMessage() + ")", this.attempts, this.lastFailure, CallOutcome.INTERRUPTED),
					this.call.id(), this.template);
		abandoned.addSuppressed(interruption);
		finish(CallOutcome.INTERRUPTED);
		return abandoned;
	}

	void waited(Duration backoff) {
		this.backoff = backoff;
	}

	/**
	 * The call failed for good.
	 * @return the exception to throw: a {@link ModelArmorException} made once more, now with its outcome
	 */
	RuntimeException failed(Throwable failure, CallOutcome outcome) {
		finish(outcome);
		if (failure instanceof ModelArmorException modelArmor) {
			CallFailures failures = CallFailures.get();
			return failures.identifiedAs(failures.endedWith(modelArmor, outcome), this.call.id(), this.template);
		}
		return (failure instanceof RuntimeException runtime) ? runtime
				: new IllegalStateException("Model Armor call failed", failure);
	}

	/**
	 * The gate refused an attempt: nothing was sent, and the call ends with the refusal's outcome.
	 * @return the exception the call ends with
	 */
	ModelArmorException refused(int attempt, CallOutcome refusal) {
		attempting(attempt - 1, this.backoff);
		ModelArmorException refused = new ModelArmorException("Model Armor was not called: " + refusal.tag(),
				attempt - 1, null, refusal);
		if (this.lastFailure != null) {
			refused.addSuppressed(this.lastFailure);
		}
		return refused;
	}

	/**
	 * An attempt got no answer: Model Armor could not be reached, or no access token came in time.
	 * @return the attempt's failure, already reported to the observer
	 */
	ModelArmorException unreachable(ResourceAccessException ex, int attempt) {
		boolean noToken = ex.getCause() instanceof TokenUnavailableException;
		if (noToken) {
			noToken();
		}
		else {
			noAnswer();
		}
		ModelArmorException unreachable = new ModelArmorException(noToken
				? "Model Armor could not be called: " + FailureClassifier.describe(ex)
				: "Model Armor could not be reached (" + FailureClassifier.describe(ex) + ")"
						+ (FailureClassifier.isCertificateRefused(ex) ? UNTRUSTED_CERTIFICATE : ""),
				attempt, ex);
		attemptFailed(attempt, unreachable);
		return unreachable;
	}

	/**
	 * A retried call ended: its answer, or its last failure thrown with how it ended.
	 * @return the answer
	 */
	<T> T ended(ModelArmorRetryTemplates.Retried<T> retried) {
		waited(retried.backoff());
		Throwable failure = retried.failure();
		if (failure != null) {
			throw failed(failure, refusalOr(failure, retried.outcome()));
		}
		finish(retried.outcome());
		// Without a failure, the retries returned what an attempt answered, which is never null.
		return Objects.requireNonNull(retried.answer(), "answer");
	}

	/** The outcome of a call the gate refused, carried by its exception; otherwise the given one. */
	static CallOutcome refusalOr(Throwable failure, CallOutcome otherwise) {
		return (failure instanceof ModelArmorException refused && refused.outcome().isPresent())
				? refused.outcome().get() : otherwise;
	}

	/**
	 * The call is still running past its deadline and the grace: it ends now, as a deadline exceeded.
	 * @return the exception the call ends with
	 */
	ModelArmorException pastDeadline() {
		ModelArmorException late = CallFailures.get()
			.identifiedAs(new ModelArmorException("Model Armor call did not end within its deadline", this.attempts,
					this.lastFailure, CallOutcome.DEADLINE_EXCEEDED), this.call.id(), this.template);
		finish(CallOutcome.DEADLINE_EXCEEDED);
		return late;
	}

	/**
	 * The call goes on on other threads: the observer gives back the starting thread's context now (a scope
	 * left open there would make the caller's later work nest under this call, and stay in a thread-local).
	 */
	void leftTheStartingThread() {
		if (this.observed != null) {
			safely(this.call, () -> {
				this.observed.leftTheStartingThread();
				return null;
			});
		}
	}

	/** Reports how the call ended, once: a call ended by its deadline may still see its last stage end. */
	synchronized void finish(CallOutcome outcome) {
		if (this.finished) {
			return;
		}
		this.finished = true;
		if (this.observed != null) {
			CallResult result = new CallResult(this.operation, outcome, this.lastStatus, this.attempts, this.backoff);
			safely(this.call, () -> {
				this.observed.finished(result);
				return null;
			});
		}
	}

	private static <R> @Nullable R safely(CallLog.Call call, java.util.function.Supplier<R> observerCall) {
		try {
			return observerCall.get();
		}
		catch (RuntimeException ex) {
			CallLog.warn(logger).call(call)
				.log("Model Armor call observer failed, the call goes on: failure=" + ex.getClass().getName());
			return null;
		}
	}

}
