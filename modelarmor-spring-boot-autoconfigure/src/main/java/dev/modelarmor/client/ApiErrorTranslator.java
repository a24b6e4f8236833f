package dev.modelarmor.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.modelarmor.retry.RetryAfterHints;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

import org.springframework.http.HttpHeaders;

/**
 * Turns an HTTP error answer into a {@link ModelArmorApiException}: the message and status from
 * Google's error body when it has one, and the larger of the {@code Retry-After} header and a
 * {@code google.rpc.RetryInfo} detail as the retry hint. A body that is not Google's error JSON (a
 * proxy's HTML page, say) still gives an exception with the status code.
 */
final class ApiErrorTranslator {

	private static final int MAX_MESSAGE_LENGTH = 500;

	private static final String RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

	private ApiErrorTranslator() {
	}

	static ModelArmorApiException translate(int statusCode, HttpHeaders headers, byte[] body, int attempts,
			boolean earlierAttemptOutcomeUnknown, Instant now) {
		GoogleError error = parse(body);
		String status = (error != null) ? error.status() : null;
		Duration retryAfter = larger(RetryAfterHints.fromRetryAfterHeader(headers.getFirst(HttpHeaders.RETRY_AFTER), now),
				retryInfoDelay(error));
		StringBuilder message = new StringBuilder("Model Armor answered HTTP ").append(statusCode);
		if (status != null) {
			message.append(' ').append(status);
		}
		if (error != null && error.message() != null && !error.message().isBlank()) {
			message.append(": ").append(printable(error.message()));
		}
		else if (body.length > 0 && error == null) {
			message.append(" with a body that is not a Google error");
		}
		return new ModelArmorApiException(message.toString(), statusCode, status, retryAfter, attempts,
				earlierAttemptOutcomeUnknown);
	}

	private static @Nullable GoogleError parse(byte[] body) {
		if (body.length == 0) {
			return null;
		}
		try {
			ErrorBody parsed = ModelArmorJson.mapper().readValue(body, ErrorBody.class);
			return (parsed != null) ? parsed.error() : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	private static Optional<Duration> retryInfoDelay(@Nullable GoogleError error) {
		if (error == null || error.details() == null) {
			return Optional.empty();
		}
		return error.details()
			.stream()
			.filter((detail) -> RETRY_INFO_TYPE.equals(detail.get("@type")))
			.map((detail) -> detail.get("retryDelay"))
			.filter(String.class::isInstance)
			.map((delay) -> RetryAfterHints.fromRetryInfoDelay((String) delay))
			.flatMap(Optional::stream)
			.findFirst();
	}

	private static @Nullable Duration larger(Optional<Duration> a, Optional<Duration> b) {
		if (a.isPresent() && b.isPresent()) {
			return (a.get().compareTo(b.get()) >= 0) ? a.get() : b.get();
		}
		return a.or(() -> b).orElse(null);
	}

	private static String printable(String message) {
		String oneLine = message.replaceAll("\\p{Cntrl}+", " ").strip();
		return (oneLine.length() > MAX_MESSAGE_LENGTH) ? oneLine.substring(0, MAX_MESSAGE_LENGTH) + "…" : oneLine;
	}

	private record ErrorBody(@Nullable GoogleError error) {
	}

	private record GoogleError(int code, @Nullable String message, @Nullable String status,
			@Nullable List<Map<String, Object>> details) {
	}

}
