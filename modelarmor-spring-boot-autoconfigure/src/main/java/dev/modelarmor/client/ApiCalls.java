package dev.modelarmor.client;

import java.io.IOException;
import java.time.Clock;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.modelarmor.retry.FailureClassifier;
import dev.modelarmor.retry.HttpFailure;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

import org.springframework.http.MediaType;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;
import org.springframework.web.util.DefaultUriBuilderFactory;

/**
 * Sends {@link ApiCall}s: JSON written and read with the starter's own mapper, HTTP errors turned into
 * {@link ModelArmorApiException}, I/O failures into {@link ModelArmorException}, and the attempts of a
 * retryable call run by the {@link RetryTemplate}. A call that is not retryable makes one attempt.
 */
final class ApiCalls {

	private final RestClient restClient;

	private final RetryTemplate retryTemplate;

	private final Clock clock = Clock.systemUTC();

	ApiCalls(RestClient restClient, RetryTemplate retryTemplate) {
		this.restClient = restClient;
		this.retryTemplate = retryTemplate;
	}

	/**
	 * Sends a call.
	 * @param call the call
	 * @param answerType the type of the JSON answer
	 * @param expected what a valid answer is, for the message when it is not
	 * @return the parsed answer
	 */
	<T> T send(ApiCall call, Class<T> answerType, String expected) {
		byte[] body = (call.body() != null) ? ModelArmorJson.mapper().writeValueAsBytes(call.body()) : null;
		if (!call.retryable()) {
			return attempt(call, body, answerType, expected, 1, false);
		}
		AtomicBoolean outcomeUnknown = new AtomicBoolean();
		return this.retryTemplate.execute((context) -> {
			if (mayHaveBeenCarriedOut(context.getLastThrowable())) {
				outcomeUnknown.set(true);
			}
			return attempt(call, body, answerType, expected, context.getRetryCount() + 1, outcomeUnknown.get());
		});
	}

	/**
	 * Whether a failed attempt may still have been carried out by Model Armor: it got no answer at all,
	 * or a gateway's 502 or 504 whose backend may have finished the work.
	 */
	private static boolean mayHaveBeenCarriedOut(@Nullable Throwable failure) {
		if (failure == null) {
			return false;
		}
		return !(failure instanceof HttpFailure http) || http.statusCode() == 502 || http.statusCode() == 504;
	}

	private <T> T attempt(ApiCall call, byte @Nullable [] body, Class<T> answerType, String expected, int attempt,
			boolean earlierAttemptOutcomeUnknown) {
		try {
			RestClient.RequestBodySpec request = this.restClient.method(call.method())
				.uri((builder) -> call.uri((call.endpoint() != null)
						? new DefaultUriBuilderFactory(call.endpoint().toString()).builder() : builder))
				.accept(MediaType.APPLICATION_JSON);
			if (body != null) {
				request.contentType(MediaType.APPLICATION_JSON).body(body);
			}
			return request.exchange(
					(req, response) -> readAnswer(response, answerType, expected, attempt, earlierAttemptOutcomeUnknown));
		}
		catch (ResourceAccessException ex) {
			throw new ModelArmorException(
					"Model Armor could not be reached (" + FailureClassifier.describe(ex) + ")", attempt, ex);
		}
	}

	private <T> T readAnswer(ConvertibleClientHttpResponse response, Class<T> answerType, String expected,
			int attempt, boolean earlierAttemptOutcomeUnknown) throws IOException {
		int status = response.getStatusCode().value();
		byte[] body = response.getBody().readAllBytes();
		if (status < 200 || status > 299) {
			throw ApiErrorTranslator.translate(status, response.getHeaders(), body, attempt, earlierAttemptOutcomeUnknown,
					this.clock.instant());
		}
		try {
			T parsed = ModelArmorJson.mapper().readValue(body, answerType);
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

}
