package dev.modelarmor.retry;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Reads the two forms in which a server says how long to wait: the HTTP {@code Retry-After} header
 * (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) and the {@code retryDelay} of a
 * {@code google.rpc.RetryInfo} error detail (a protobuf JSON duration such as {@code "1.5s"}).
 * Anything unreadable is no hint rather than an error.
 */
public final class RetryAfterHints {

	private RetryAfterHints() {
	}

	/**
	 * Parses a {@code Retry-After} header value.
	 * @param value the header value
	 * @param now the time the answer arrived, for an HTTP-date
	 * @return the wait; zero for a date in the past; empty when absent or unreadable
	 */
	public static Optional<Duration> fromRetryAfterHeader(@Nullable String value, Instant now) {
		if (value == null || value.isBlank()) {
			return Optional.empty();
		}
		String trimmed = value.trim();
		if (trimmed.chars().allMatch(Character::isDigit)) {
			return (trimmed.length() > 18) ? Optional.empty() : Optional.of(Duration.ofSeconds(Long.parseLong(trimmed)));
		}
		try {
			Instant until = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			Duration wait = Duration.between(now, until);
			return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
		}
		catch (DateTimeParseException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Parses the {@code retryDelay} of a {@code google.rpc.RetryInfo} detail.
	 * @param value a protobuf JSON duration: seconds with up to nine fractional digits and an {@code s}
	 * @return the wait, or empty when absent, negative or unreadable
	 */
	public static Optional<Duration> fromRetryInfoDelay(@Nullable String value) {
		if (value == null || !value.endsWith("s")) {
			return Optional.empty();
		}
		try {
			BigDecimal seconds = new BigDecimal(value.substring(0, value.length() - 1));
			if (seconds.signum() < 0 || seconds.scale() > 9) {
				return Optional.empty();
			}
			return Optional.of(Duration.ofNanos(seconds.movePointRight(9).longValueExact()));
		}
		catch (NumberFormatException | ArithmeticException ex) {
			return Optional.empty();
		}
	}

}
