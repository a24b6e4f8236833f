package dev.modelarmor.client.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.retry.internal.RetryAfterHints;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;

/**
 * Turns an HTTP error answer into a {@link ModelArmorApiException}: the message and status from
 * Google's error body when it has one, and the longest of the {@code Retry-After} headers and
 * {@code google.rpc.RetryInfo} details as the retry hint. A body that is not Google's error JSON (a
 * proxy's HTML page, say) still gives an exception with the status code.
 *
 * <p>The body is read field by field from a tree, so that a field of an unexpected type (a number for
 * the message, a string among the details) loses only that field, never the rest. What the server wrote
 * reaches the message only through {@link ServerText}.
 */
public final class ApiErrorTranslator {

	/** The most characters of the server's message that the exception message quotes. */
	public static final int MAX_MESSAGE_LENGTH = 500;

	private static final String RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

	private ApiErrorTranslator() {
	}

	static ModelArmorApiException translate(int statusCode, HttpHeaders headers, byte[] body, int attempts,
			boolean earlierAttemptOutcomeUnknown, Instant now) {
		return translate(statusCode, headers, body, attempts, earlierAttemptOutcomeUnknown, now, null);
	}

	/**
	 * The exception for an error answer to a call on a template: a 404 says that the template was not found,
	 * naming it (a template id is configuration, not content).
	 */
	static ModelArmorApiException translate(int statusCode, HttpHeaders headers, byte[] body, int attempts,
			boolean earlierAttemptOutcomeUnknown, Instant now, @Nullable String template) {
		JsonNode error = errorObject(body);
		String status = ServerText.statusName(text(error, "status"));
		Duration retryAfter = Stream.of(retryAfterHeaders(headers, now), retryInfoDelay(error))
			.flatMap(Optional::stream)
			.max(Duration::compareTo)
			.orElse(null);
		StringBuilder message = new StringBuilder("Model Armor answered HTTP ").append(statusCode);
		if (status != null) {
			message.append(' ').append(status);
		}
		if (statusCode == 404 && template != null) {
			message.append(" (template not found: ").append(ServerText.printable(template, MAX_MESSAGE_LENGTH))
				.append(')');
		}
		String serverMessage = text(error, "message");
		String printable = (serverMessage != null) ? ServerText.printable(serverMessage, MAX_MESSAGE_LENGTH) : "";
		if (!printable.isEmpty()) {
			message.append(": ").append(printable);
		}
		else if (body.length > 0 && error == null) {
			message.append(" with a body that is not a Google error");
		}
		ModelArmorApiException failure = new ModelArmorApiException(message.toString(), statusCode, status,
				retryAfter, attempts, earlierAttemptOutcomeUnknown);
		return (statusCode == 404 && template != null) ? CallFailures.get().templateNotFound(failure, template)
				: failure;
	}

	/** The {@code error} object of Google's error body, or {@code null} when the body has none. */
	private static @Nullable JsonNode errorObject(byte[] body) {
		if (body.length == 0) {
			return null;
		}
		try {
			JsonNode error = ModelArmorJson.mapper().readTree(body).get("error");
			return (error != null && error.isObject()) ? error : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	private static @Nullable String text(@Nullable JsonNode node, String field) {
		JsonNode value = (node != null) ? node.get(field) : null;
		return (value != null && value.isString()) ? value.stringValue() : null;
	}

	private static Optional<Duration> retryAfterHeaders(HttpHeaders headers, Instant now) {
		return headers.getOrEmpty(HttpHeaders.RETRY_AFTER)
			.stream()
			.map((value) -> RetryAfterHints.fromRetryAfterHeader(value, now))
			.flatMap(Optional::stream)
			.max(Duration::compareTo);
	}

	private static Optional<Duration> retryInfoDelay(@Nullable JsonNode error) {
		JsonNode details = (error != null) ? error.get("details") : null;
		if (details == null || !details.isArray()) {
			return Optional.empty();
		}
		return details.values()
			.stream()
			.filter((detail) -> RETRY_INFO_TYPE.equals(text(detail, "@type")))
			.map((detail) -> RetryAfterHints.fromRetryInfoDelay(text(detail, "retryDelay")))
			.flatMap(Optional::stream)
			.max(Duration::compareTo);
	}

}
