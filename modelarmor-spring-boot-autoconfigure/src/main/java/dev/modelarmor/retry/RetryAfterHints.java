package dev.modelarmor.retry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Reads the two forms in which a server says how long to wait: the HTTP {@code Retry-After} header
 * (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) and the {@code retryDelay} of a
 * {@code google.rpc.RetryInfo} error detail (a protobuf JSON duration such as {@code "1.5s"}).
 * Anything unreadable is no hint rather than an error.
 */
public final class RetryAfterHints {

	private static final Pattern DELAY_SECONDS = Pattern.compile("[0-9]{1,18}");

	private static final Pattern PROTO_DURATION = Pattern.compile("([0-9]{1,12})(?:\\.([0-9]{1,9}))?s");

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
		if (DELAY_SECONDS.matcher(trimmed).matches()) {
			return Optional.of(Duration.ofSeconds(Long.parseLong(trimmed)));
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
	 * @param value a protobuf JSON duration: whole seconds (up to 315,576,000,000), up to nine fractional digits, and {@code s}
	 * @return the wait, or empty when absent, negative or unreadable
	 */
	public static Optional<Duration> fromRetryInfoDelay(@Nullable String value) {
		if (value == null) {
			return Optional.empty();
		}
		Matcher matcher = PROTO_DURATION.matcher(value);
		if (!matcher.matches()) {
			return Optional.empty();
		}
		String fraction = (matcher.group(2) != null) ? matcher.group(2) : "";
		long nanos = (fraction.isEmpty()) ? 0 : Long.parseLong((fraction + "00000000").substring(0, 9));
		return Optional.of(Duration.ofSeconds(Long.parseLong(matcher.group(1)), nanos));
	}

}
