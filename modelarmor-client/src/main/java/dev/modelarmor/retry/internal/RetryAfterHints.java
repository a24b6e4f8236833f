package dev.modelarmor.retry.internal;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.retry.RetrySettings;
import org.jspecify.annotations.Nullable;

/**
 * Reads the two forms in which a server says how long to wait: the HTTP {@code Retry-After} header
 * (delay-seconds or an HTTP-date in any of the three forms of RFC 9110 §5.6.7) and the
 * {@code retryDelay} of a {@code google.rpc.RetryInfo} error detail (a protobuf JSON duration such as
 * {@code "1.5s"}).
 *
 * <p>Whatever a server sends gives a hint or none, never an exception: anything unreadable (signs,
 * decimals in a header, unknown date forms) is no hint, a date in the past is zero, and a hint longer
 * than any deadline ({@link RetrySettings#MAX_DEADLINE}) is read as {@link #TOO_LONG}, so that no
 * arithmetic on it can overflow and it never fits a deadline.
 */
public final class RetryAfterHints {

	/**
	 * What every hint longer than {@link RetrySettings#MAX_DEADLINE} reads as: longer than any deadline,
	 * so retrying ends at once with {@link dev.modelarmor.retry.CallOutcome#RETRY_AFTER_EXCEEDS_DEADLINE}.
	 */
	public static final Duration TOO_LONG = RetrySettings.MAX_DEADLINE.plusSeconds(1);

	/** Whole seconds with more significant digits than the longest deadline has are longer than it. */
	private static final int MAX_SECONDS_DIGITS = Long.toString(RetrySettings.MAX_DEADLINE.getSeconds()).length();

	private static final Pattern DELAY_SECONDS = Pattern.compile("[0-9]+");

	private static final Pattern PROTO_DURATION = Pattern.compile("(-?)([0-9]+)(?:\\.([0-9]{1,9}))?s");

	/** Sunday, 06-Nov-94 08:49:37 GMT: obsolete, but recipients must accept it. */
	private static final String RFC_850_DAY_AND_MONTH = "EEEE, dd-MMM-";

	/** Sun Nov  6 08:49:37 1994: C's asctime(), also to be accepted. */
	private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
		.appendPattern("EEE MMM ppd HH:mm:ss uuuu")
		.toFormatter(Locale.US)
		.withZone(ZoneOffset.UTC);

	private static final Instant LATEST_DATED = Instant.parse("9999-12-31T23:59:59Z");

	private static final Instant EARLIEST_DATED = Instant.parse("0000-01-01T00:00:00Z");

	private RetryAfterHints() {
	}

	/**
	 * Parses a {@code Retry-After} header value.
	 * @param value the header value
	 * @param now the time the answer arrived, for an HTTP-date
	 * @return the wait, at most {@link #TOO_LONG}; zero for a date in the past; empty when absent or
	 * unreadable
	 */
	public static Optional<Duration> fromRetryAfterHeader(@Nullable String value, Instant now) {
		if (value == null || value.isBlank()) {
			return Optional.empty();
		}
		String trimmed = value.trim();
		if (DELAY_SECONDS.matcher(trimmed).matches()) {
			return Optional.of(seconds(trimmed, 0));
		}
		Instant until = httpDate(trimmed, now);
		if (until == null) {
			return Optional.empty();
		}
		Duration wait = Duration.between(now, until);
		return Optional.of(wait.isNegative() ? Duration.ZERO : clamped(wait));
	}

	/**
	 * Parses the {@code retryDelay} of a {@code google.rpc.RetryInfo} detail.
	 * @param value a protobuf JSON duration: whole seconds, up to nine fractional digits, and {@code s}
	 * @return the wait, at most {@link #TOO_LONG}; empty when absent, negative or unreadable
	 */
	public static Optional<Duration> fromRetryInfoDelay(@Nullable String value) {
		if (value == null) {
			return Optional.empty();
		}
		Matcher matcher = PROTO_DURATION.matcher(value);
		if (!matcher.matches() || !matcher.group(1).isEmpty()) {
			return Optional.empty();
		}
		String fraction = (matcher.group(3) != null) ? matcher.group(3) : "";
		long nanos = (fraction.isEmpty()) ? 0 : Long.parseLong((fraction + "00000000").substring(0, 9));
		return Optional.of(seconds(matcher.group(2), nanos));
	}

	/** Whole seconds given as ASCII digits, however many, plus nanoseconds; never above {@link #TOO_LONG}. */
	private static Duration seconds(String digits, long nanos) {
		int first = 0;
		while (first < digits.length() - 1 && digits.charAt(first) == '0') {
			first++;
		}
		if (digits.length() - first > MAX_SECONDS_DIGITS) {
			return TOO_LONG;
		}
		return clamped(Duration.ofSeconds(Long.parseLong(digits, first, digits.length(), 10), nanos));
	}

	private static Duration clamped(Duration wait) {
		return (wait.compareTo(RetrySettings.MAX_DEADLINE) > 0) ? TOO_LONG : wait;
	}

	/** An HTTP-date in any of its three forms, or {@code null}. */
	private static @Nullable Instant httpDate(String text, Instant now) {
		for (DateTimeFormatter form : new DateTimeFormatter[] { DateTimeFormatter.RFC_1123_DATE_TIME, rfc850(now),
				ASCTIME }) {
			try {
				return ZonedDateTime.parse(text, form).toInstant();
			}
			catch (DateTimeException ex) {
				// not this form
			}
		}
		return null;
	}

	/**
	 * The RFC 850 form, whose two-digit year is the one within 50 years of now, the past preferred
	 * (RFC 9110 §5.6.7).
	 */
	private static DateTimeFormatter rfc850(Instant now) {
		// a two-digit year says nothing about an answer dated beyond the years of four digits: read those
		// as arriving at the nearest edge, so the year and the window stay in range
		Instant dated = now.isAfter(LATEST_DATED) ? LATEST_DATED : now.isBefore(EARLIEST_DATED) ? EARLIEST_DATED : now;
		int thisYear = dated.atOffset(ZoneOffset.UTC).getYear();
		return new DateTimeFormatterBuilder().appendPattern(RFC_850_DAY_AND_MONTH)
			.appendValueReduced(ChronoField.YEAR, 2, 2, thisYear - 49)
			.appendPattern(" HH:mm:ss 'GMT'")
			.toFormatter(Locale.US)
			.withZone(ZoneOffset.UTC);
	}

}
