package dev.modelarmor.client;

import java.net.URI;
import java.time.Duration;

import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.DefaultUriBuilderFactory;

/**
 * Sends {@link ApiCall}s: JSON written and read with the starter's own mapper, HTTP errors turned into
 * {@link ModelArmorApiException}, I/O failures into {@link ModelArmorException}, and the attempts of a
 * retryable call run by the {@link RetryTemplate}. A call that is not retryable makes one attempt. Every
 * call ends with an outcome, given to its final exception when that is made and reported to the
 * {@link ModelArmorCallObserver}.
 */
final class ApiCalls {

	/** No Model Armor answer comes near this (4 MiB of content at most); a proxy's runaway body is cut off. */
	static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

	/**
	 * The {@code Accept} and {@code Content-Type} of every call, given as text: a {@code MediaType} would be
	 * formatted again at every attempt.
	 */
	static final String JSON = MediaType.APPLICATION_JSON_VALUE;

	private final RestClient restClient;

	private final RetryTemplate retryTemplate;

	private final ModelArmorCallObserver observer;

	/** Admits each attempt (quota, circuit breaker) and hears its status and the call's end. */
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
		byte @Nullable [] body = jsonBody(call);
		CallProgress progress = new CallProgress(call.operation(), templateOf(call), this.observer);
		AttemptGate.CallAdmissions admissions = this.gate.call(call.operation(), progress.template());
		try {
			return send(call, body, answerType, expected, progress, admissions);
		}
		finally {
			admissions.ended();
		}
	}

	private <T> T send(ApiCall call, byte @Nullable [] body, Class<T> answerType, String expected,
			CallProgress progress, AttemptGate.CallAdmissions admissions) {
		if (!call.retryable()) {
			try {
				T answer = gatedAttempt(admissions, call, body, answerType, expected, progress.attempting(1, Duration.ZERO),
						null, progress);
				progress.finish(CallOutcome.SUCCESS);
				return answer;
			}
			catch (RuntimeException ex) {
				throw progress.failed(ex, CallProgress.refusalOr(ex, CallOutcome.NON_RETRYABLE));
			}
			catch (Error ex) {
				progress.finish(CallOutcome.NON_RETRYABLE);
				throw ex;
			}
		}
		ModelArmorRetryTemplates.Retried<T> retried;
		try {
			retried = ModelArmorRetryTemplates.execute(this.retryTemplate, progress.call(), (attempt) -> {
				progress.beforeAttempt(attempt.previousFailure());
				return gatedAttempt(admissions, call, body, answerType, expected,
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
		return progress.ended(retried);
	}

	/** The call's body as JSON, written once for all of its attempts. */
	static byte @Nullable [] jsonBody(ApiCall call) {
		Object request = call.body();
		return (request != null) ? ModelArmorJson.writerFor(request.getClass()).writeValueAsBytes(request) : null;
	}

	/**
	 * The gate admits the attempt or refuses it (then nothing is sent and the call ends with the refusal's
	 * outcome, which no retry follows), and hears the status of an admitted attempt.
	 */
	private <T> T gatedAttempt(AttemptGate.CallAdmissions admissions, ApiCall call, byte @Nullable [] body,
			Class<T> answerType, String expected, int attempt, @Nullable RetryDeadline deadline, CallProgress progress) {
		AttemptGate.Admission admission = admissions.admit(deadline);
		CallOutcome refusal = admission.refusal();
		if (refusal != null) {
			throw progress.refused(attempt, refusal);
		}
		progress.lastStatus = "none";
		try {
			return attempt(call, body, answerType, expected, attempt, deadline, progress);
		}
		finally {
			admission.ended(progress.lastStatus);
		}
	}

	/** The template a call addresses, for the gate. */
	static @Nullable String templateOf(ApiCall call) {
		return (call.variables().get("template") instanceof String template) ? template : null;
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
			return request.exchange((req, response) -> AnswerReader.read(response, answerType, expected, attempt, progress));
		}
		catch (ResourceAccessException ex) {
			throw progress.unreachable(ex, attempt);
		}
		catch (ModelArmorException ex) {
			progress.attemptFailed(attempt, ex);
			throw ex;
		}
	}

}
