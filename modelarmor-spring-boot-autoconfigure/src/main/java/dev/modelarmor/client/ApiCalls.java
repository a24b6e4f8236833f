package dev.modelarmor.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.CallLog;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.FailureClassifier;
import dev.modelarmor.retry.HttpFailure;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.TokenUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;
import org.springframework.web.util.DefaultUriBuilderFactory;

/**
 * Sends {@link ApiCall}s: JSON written and read with the starter's own mapper, HTTP errors turned into
 * {@link ModelArmorApiException}, I/O failures into {@link ModelArmorException}, and the attempts of a
 * retryable call run by the {@link RetryTemplate}. A call that is not retryable makes one attempt. Every
 * call ends with an outcome, given to its final exception when that is made and reported to the
 * {@link ModelArmorCallObserver}.
 */
final class ApiCalls {

	private static final Logger logger = LoggerFactory.getLogger(ApiCalls.class);

	/** No Model Armor answer comes near this (4 MiB of content at most); a proxy's runaway body is cut off. */
	static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

	private static final String UNTRUSTED_CERTIFICATE = ": its certificate was refused; name an SSL bundle that "
			+ "trusts it in modelarmor.http.ssl.bundle (or spring.http.clients.ssl.bundle)";

	/**
	 * The {@code Accept} and {@code Content-Type} of every call, given as text: a {@code MediaType} would be
	 * formatted again at every attempt.
	 */
	private static final String JSON = MediaType.APPLICATION_JSON_VALUE;

	private final RestClient restClient;

	private final RetryTemplate retryTemplate;

	private final ModelArmorCallObserver observer;

	/** Issue 26: admits each attempt (quota, circuit breaker) and hears its status. */
	private final AttemptGate gate;

	ApiCalls(RestClient restClient, RetryTemplate retryTemplate, ModelArmorCallObserver observer) {
		this(restClient, retryTemplate, observer, AttemptGate.OPEN);
	}

	private ApiCalls(RestClient restClient, RetryTemplate retryTemplate, ModelArmorCallObserver observer,
			AttemptGate gate) {
		this.restClient = restClient;
		this.retryTemplate = retryTemplate;
		this.observer = observer;
		this.gate = gate;
	}

	ApiCalls observedBy(ModelArmorCallObserver observer) {
		return new ApiCalls(this.restClient, this.retryTemplate, observer, this.gate);
	}

	ApiCalls retryingWith(RetryTemplate retryTemplate) {
		return new ApiCalls(this.restClient, retryTemplate, this.observer, this.gate);
	}

	ApiCalls gatedBy(AttemptGate gate) {
		return new ApiCalls(this.restClient, this.retryTemplate, this.observer, gate);
	}

	/**
	 * Sends a call.
	 * @param call the call
	 * @param answerType the type of the JSON answer
	 * @param expected what a valid answer is, for the message when it is not
	 * @return the parsed answer
	 */
	<T> T send(ApiCall call, Class<T> answerType, String expected) {
		Object request = call.body();
		byte[] body = (request != null) ? ModelArmorJson.writerFor(request.getClass()).writeValueAsBytes(request) : null;
		CallProgress progress = new CallProgress(call.operation(), template(call), this.observer);
		if (!call.retryable()) {
			try {
				T answer = gatedAttempt(call, body, answerType, expected, progress.attempting(1, Duration.ZERO), null,
						progress);
				progress.finish(CallOutcome.SUCCESS);
				return answer;
			}
			catch (RuntimeException ex) {
				throw progress.failed(ex, refusalOr(ex, CallOutcome.NON_RETRYABLE));
			}
			catch (Error ex) {
				progress.finish(CallOutcome.NON_RETRYABLE);
				throw ex;
			}
		}
		ModelArmorRetryTemplates.Retried<T> retried;
		try {
			retried = ModelArmorRetryTemplates.execute(this.retryTemplate, progress.call, (attempt) -> {
				progress.beforeAttempt(attempt.previousFailure());
				return gatedAttempt(call, body, answerType, expected,
						progress.attempting(attempt.number(), attempt.backoff()), attempt.deadline(), progress);
			});
		}
		catch (BackOffInterruptedException ex) {
			throw progress.abandoned(ex);
		}
		catch (RuntimeException ex) {
			throw progress.failed(ex, CallOutcome.NON_RETRYABLE);
		}
		catch (Error ex) {
			progress.finish(CallOutcome.NON_RETRYABLE);
			throw ex;
		}
		progress.waited(retried.backoff());
		Throwable failure = retried.failure();
		if (failure != null) {
			throw progress.failed(failure, refusalOr(failure, retried.outcome()));
		}
		progress.finish(retried.outcome());
		// Without a failure, the retry template returned what an attempt answered, which is never null.
		return Objects.requireNonNull(retried.answer(), "answer");
	}

	/**
	 * Issue 26's hook: the gate admits the attempt or refuses it (then nothing is sent and the call ends with
	 * the refusal's outcome, which no retry follows), and hears the status of an admitted attempt.
	 */
	private <T> T gatedAttempt(ApiCall call, byte @Nullable [] body, Class<T> answerType, String expected,
			int attempt, @Nullable RetryDeadline deadline, CallProgress progress) {
		AttemptGate.Admission admission = this.gate.admit(call.operation(), template(call), deadline);
		CallOutcome refusal = admission.refusal();
		if (refusal != null) {
			progress.attempting(attempt - 1, progress.backoff);
			ModelArmorException refused = new ModelArmorException("Model Armor was not called: " + refusal.tag(),
					attempt - 1, null, refusal);
			if (progress.lastFailure != null) {
				refused.addSuppressed(progress.lastFailure);
			}
			throw refused;
		}
		progress.lastStatus = "none";
		try {
			return attempt(call, body, answerType, expected, attempt, deadline, progress);
		}
		finally {
			admission.ended(progress.lastStatus);
		}
	}

	private static @Nullable String template(ApiCall call) {
		return (call.variables().get("template") instanceof String template) ? template : null;
	}

	/** The outcome of a call the gate refused, carried by its exception; otherwise the given one. */
	private static CallOutcome refusalOr(Throwable failure, CallOutcome otherwise) {
		return (failure instanceof ModelArmorException refused && refused.outcome().isPresent())
				? refused.outcome().get() : otherwise;
	}

	/**
	 * Makes one attempt. The call's deadline, when it has one, rides on the request as
	 * {@link ModelArmorRestClients#DEADLINE_ATTRIBUTE}, so that fetching the access token stops when it passes
	 * and the attempt's read timeout never outlasts it.
	 */
	private <T> T attempt(ApiCall call, byte @Nullable [] body, Class<T> answerType, String expected, int attempt,
			@Nullable RetryDeadline deadline, CallProgress progress) {
		try {
			RestClient.RequestBodyUriSpec method = this.restClient.method(call.method());
			URI resolved = call.resolvedUri();
			RestClient.RequestBodySpec request = ((resolved != null) ? method.uri(resolved)
					: method.uri((builder) -> call.uri((call.endpoint() != null)
							? new DefaultUriBuilderFactory(call.endpoint().toString()).builder() : builder)))
				.header(HttpHeaders.ACCEPT, JSON);
			if (deadline != null) {
				request.attribute(ModelArmorRestClients.DEADLINE_ATTRIBUTE, deadline);
			}
			if (body != null) {
				// written as it is, not through the message converters that RestClient would search for byte[]
				request.header(HttpHeaders.CONTENT_TYPE, JSON).body((out) -> out.write(body));
			}
			String template = (call.variables().get("template") instanceof String id) ? id : null;
			return request.exchange((req, response) -> readAnswer(response, answerType, expected, attempt, progress,
					template));
		}
		catch (ResourceAccessException ex) {
			boolean noToken = isTokenUnavailable(ex);
			if (noToken) {
				progress.noToken();
			}
			else {
				progress.noAnswer();
			}
			ModelArmorException unreachable = new ModelArmorException(noToken
					? "Model Armor could not be called: " + FailureClassifier.describe(ex)
					: "Model Armor could not be reached (" + FailureClassifier.describe(ex) + ")"
							+ (FailureClassifier.isCertificateRefused(ex) ? UNTRUSTED_CERTIFICATE : ""),
					attempt, ex);
			progress.attemptFailed(attempt, unreachable);
			throw unreachable;
		}
		catch (ModelArmorException ex) {
			progress.attemptFailed(attempt, ex);
			throw ex;
		}
	}

	private <T> T readAnswer(ConvertibleClientHttpResponse response, Class<T> answerType, String expected,
			int attempt, CallProgress progress, @Nullable String template) throws IOException {
		int status = response.getStatusCode().value();
		progress.answeredWith(status);
		byte[] body = response.getBody().readNBytes(MAX_ANSWER_BYTES + 1);
		if (body.length > MAX_ANSWER_BYTES) {
			throw new ModelArmorException("Model Armor answered HTTP " + status + " with a body larger than "
					+ MAX_ANSWER_BYTES + " bytes; it was not read further", attempt, null);
		}
		if (status < 200 || status > 299) {
			throw ApiErrorTranslator.translate(status, response.getHeaders(), body, attempt,
					progress.earlierAttemptOutcomeUnknown(), java.time.Instant.now(), template);
		}
		try {
			T parsed = ModelArmorJson.readerFor(answerType).readValue(body);
			String problem = (parsed == null) ? "with an empty body where " + expected + " was expected"
					: (parsed instanceof ApiAnswer answer) ? answer.problem() : null;
			if (problem != null) {
				throw new ModelArmorException("Model Armor answered HTTP " + status + " " + problem, attempt, null);
			}
			return parsed;
		}
		catch (JacksonException ex) {
			throw new ModelArmorException("Model Armor answered HTTP " + status + " with a body that is not "
					+ expected + ": " + describe(ex, body), attempt, null);
		}
	}

	/** Whether the attempt failed before it was sent, for want of an access token. */
	private static boolean isTokenUnavailable(ResourceAccessException ex) {
		return ex.getCause() instanceof TokenUnavailableException;
	}

	/** Where the body went wrong, without quoting it: it may echo screened content. */
	private static String describe(JacksonException ex, byte[] body) {
		if (body.length == 0) {
			return "the body is empty";
		}
		TokenStreamLocation where = ex.getLocation();
		String position = (where != null && where.getLineNr() > 0)
				? " at line " + where.getLineNr() + ", column " + where.getColumnNr() : "";
		return ex.getClass().getSimpleName() + position;
	}

	/**
	 * What one call has seen so far: its attempts, the status of its last answer, whether an earlier
	 * attempt may have been carried out although it failed, and the time spent waiting. It reports the
	 * call to the observer once, when the call ends; an observer that fails is logged and never fails the
	 * call.
	 */
	private static final class CallProgress {

		private final String operation;

		private final ModelArmorCallObserver.@Nullable Call observed;

		/** Names the call in every log line about it, and in its final exception. */
		private final CallLog.Call call;

		private String lastStatus = "none";

		private boolean earlierAttemptOutcomeUnknown;

		private int attempts;

		private Duration backoff = Duration.ZERO;

		private @Nullable ModelArmorException lastFailure;

		CallProgress(String operation, @Nullable String template, ModelArmorCallObserver observer) {
			this.operation = operation;
			this.call = CallLog.Call.start(operation, template);
			this.observed = safely(this.call, () -> observer.start(operation, template));
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
			ModelArmorException abandoned = new ModelArmorException("Model Armor call abandoned while waiting to retry ("
					+ interruption.getMessage() + ")", this.attempts, this.lastFailure, CallOutcome.INTERRUPTED)
				.identifiedAs(this.call.id());
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
				return modelArmor.endedWith(outcome).identifiedAs(this.call.id());
			}
			return (failure instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException("Model Armor call failed", failure);
		}

		void finish(CallOutcome outcome) {
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

}
