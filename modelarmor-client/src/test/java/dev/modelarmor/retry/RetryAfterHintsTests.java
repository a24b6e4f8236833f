package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.RetryAfterHints;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterHintsTests {

	/** Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110. */
	private static final Instant NOW = Instant.parse("1994-11-06T08:49:37Z");

	@ParameterizedTest
	@CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = { "0|0", "5|5", " 7 |7",
			"120|120", "86400|86400", "0000000000000000000000000000007|7" })
	void headerDelaySecondsAreTheWait(String header, long seconds) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, NOW)).contains(Duration.ofSeconds(seconds));
	}

	@Test
	void headerHttpDateInTheFutureIsTheTimeUntilThen() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sun, 06 Nov 1994 08:50:07 GMT", NOW))
			.contains(Duration.ofSeconds(30));
	}

	@Test
	void headerHttpDateIsMeasuredFromTheInjectedNow() {
		Instant later = NOW.plusSeconds(20);
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sun, 06 Nov 1994 08:50:07 GMT", later))
			.contains(Duration.ofSeconds(10));
	}

	@Test
	void headerHttpDateNowIsZero() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sun, 06 Nov 1994 08:49:37 GMT", NOW)).contains(Duration.ZERO);
	}

	@Test
	void headerHttpDateInThePastIsZero() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sat, 05 Nov 1994 08:49:37 GMT", NOW)).contains(Duration.ZERO);
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { " ", "\t", "-5", "-0.5", "1.5", "5s", "soon", "5 5", "+5", "0x10",
			"Sun, 06 Nov 1994 25:49:37 GMT", "06 Nov 1994", "1e3", "5,5", "- 5", "5-", "1994-11-06T08:50:07Z",
			"Mon, 06 Nov 1994 08:50:07 GMT", "Sun, 06 Nov 1994 08:50:07", "Sun, 06 Nov 94 08:50:07 GMT" })
	void unreadableHeaderIsNoHint(String header) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, NOW)).isEmpty();
	}

	@ParameterizedTest
	@CsvSource({ "1s, 1000000000", "1.5s, 1500000000", "0.000000001s, 1", "3.250s, 3250000000", "0s, 0",
			"0.5s, 500000000", "30s, 30000000000" })
	void retryInfoDelayIsTheWait(String delay, long nanos) {
		assertThat(RetryAfterHints.fromRetryInfoDelay(delay)).contains(Duration.ofNanos(nanos));
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { "-1s", "-0.5s", "1", "1.5", "s", "1.0000000001s", "0.0000000001s", "abc",
			"1ms", "1 s", " 1s", "1s ", "1,5s", "-99999999999999999999999s", "--1s", "1.5.5s", "1S", "NaNs",
			"Infinitys" })
	void unreadableRetryInfoDelayIsNoHint(String delay) {
		assertThat(RetryAfterHints.fromRetryInfoDelay(delay)).isEmpty();
	}

	@Test
	void fractionDigitsAreNotRounded() {
		Optional<Duration> hint = RetryAfterHints.fromRetryInfoDelay("2.999999999s");
		assertThat(hint).contains(Duration.ofSeconds(2, 999_999_999));
	}

	@ParameterizedTest
	@ValueSource(strings = { "\u0665", "1\u0660", "\uff15" })
	void onlyAsciiDigitsAreDelaySeconds(String header) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, Instant.parse("2026-01-01T00:00:00Z"))).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "1e3s", "+1s", " 1s", "1.s", ".5s" })
	void onlyTheProtobufDurationFormIsARetryInfoDelay(String delay) {
		assertThat(RetryAfterHints.fromRetryInfoDelay(delay)).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "86401", "86400000", "999999999999999999", "9223372036854775807", "9223372036854775808",
			"9999999999999999999", "99999999999999999999999", "00000000000000000000000000000000000000086401" })
	void headerDelaySecondsLongerThanAnyDeadlineAreTooLong(String header) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, NOW)).contains(RetryAfterHints.TOO_LONG);
	}

	@Test
	void tooLongIsLongerThanTheLongestDeadline() {
		assertThat(RetryAfterHints.TOO_LONG).isGreaterThan(RetrySettings.MAX_DEADLINE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 07 Nov 1994 08:49:38 GMT",
			"Fri, 31 Dec 9999 23:59:59 +0000", "Friday, 31-Dec-99 23:59:59 GMT" })
	void headerDatesFurtherAwayThanAnyDeadlineAreTooLong(String header) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, NOW)).contains(RetryAfterHints.TOO_LONG);
	}

	@Test
	void headerDateADayAwayIsStillAWait() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Mon, 07 Nov 1994 08:49:37 GMT", NOW))
			.contains(RetrySettings.MAX_DEADLINE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Mon, 01 Jan 0001 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT",
			"Saturday, 05-Nov-94 08:49:37 GMT", "Sat Nov  5 08:49:37 1994" })
	void headerDatesLongPastAreZero(String header) {
		assertThat(RetryAfterHints.fromRetryAfterHeader(header, NOW)).contains(Duration.ZERO);
	}

	@Test
	void headerDateInTheObsoleteRfc850FormIsRead() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sunday, 06-Nov-94 08:50:07 GMT", NOW))
			.contains(Duration.ofSeconds(30));
	}

	@Test
	void headerDateInTheAsctimeFormIsRead() {
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sun Nov  6 08:50:07 1994", NOW)).contains(Duration.ofSeconds(30));
	}

	@Test
	void aTwoDigitYearMoreThanFiftyYearsAheadIsInThePast() {
		// Seen in 2026: 76 is 2076 (50 years ahead, a day too far for the hint) and 77 is 1977 (long past).
		Instant now = Instant.parse("2026-06-01T00:00:00Z");
		assertThat(RetryAfterHints.fromRetryAfterHeader("Sunday, 01-Mar-76 00:00:00 GMT", now))
			.contains(RetryAfterHints.TOO_LONG);
		assertThat(RetryAfterHints.fromRetryAfterHeader("Tuesday, 01-Mar-77 00:00:00 GMT", now)).contains(Duration.ZERO);
	}

	@ParameterizedTest
	@ValueSource(strings = { "86401s", "315576000000.999999999s", "9223372036854775807s", "9223372036854775808s",
			"99999999999999999999999999999s", "99999999999999999999999999999.999999999s" })
	void retryInfoDelaysLongerThanAnyDeadlineAreTooLong(String delay) {
		assertThat(RetryAfterHints.fromRetryInfoDelay(delay)).contains(RetryAfterHints.TOO_LONG);
	}

	@Test
	void retryInfoDelayOfExactlyADayIsStillAWait() {
		assertThat(RetryAfterHints.fromRetryInfoDelay("86400s")).contains(RetrySettings.MAX_DEADLINE);
		assertThat(RetryAfterHints.fromRetryInfoDelay("86400.000000001s")).contains(RetryAfterHints.TOO_LONG);
	}

	@Test
	void retryInfoDelayWithLeadingZerosIsItsValue() {
		assertThat(RetryAfterHints.fromRetryInfoDelay("0000000000000000000000000002.5s")).contains(Duration.ofMillis(2500));
	}

}
