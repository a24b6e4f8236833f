package dev.modelarmor.retry;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import tools.jackson.databind.json.JsonMapper;

/**
 * Retry hints a hostile or broken server could send, drawn from a seeded {@link SplittableRandom} so that
 * a failure names a value that can be replayed: {@code Retry-After} values (delay-seconds of any length,
 * with signs, spaces and decimals; HTTP-dates of any year in every form, right and wrong; garbage) and
 * {@code RetryInfo.retryDelay} values (protobuf durations of any size and sign; garbage).
 */
public final class HostileHints {

	/** Values that are each worth a try, whatever the random draws. */
	public static final List<String> RETRY_AFTER_EXTREMES = List.of("", " ", "0", "-0", "00", "86400", "86401",
			"9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999999999999999",
			"1.5", "+5", "-5", " 5 ", "5s", "0x10", "1e9", "Infinity", "NaN", "Fri, 31 Dec 9999 23:59:59 GMT",
			"Mon, 01 Jan 0001 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Sat, 31 Dec 9999 23:59:59 GMT",
			"Fri, 31 Dec 9999 23:59:60 GMT", "Fri, 31 Dec 99999 23:59:59 GMT", "Fri, 31 Dec 9999 23:59:59 +1800",
			"Fri, 31 Dec 9999 23:59:59 -1800", "Friday, 31-Dec-99 23:59:59 GMT", "Fri Dec 31 23:59:59 9999",
			"+999999999-12-31T23:59:59Z", "\u0665", "\u202e5", "5\r\nX-Forged: 1");

	/** Values that are each worth a try, whatever the random draws. */
	public static final List<String> RETRY_INFO_EXTREMES = List.of("", "s", "0s", "-0s", "86400s", "86400.000000001s",
			"86401s", "315576000000s", "315576000000.999999999s", "9223372036854775807s", "9223372036854775808s",
			"-9223372036854775808s", "99999999999999999999999999999999999s", "1.0000000001s", "-1s", "1e9s",
			"Infinitys", "NaNs", "1.5", "\u0665s");

	private static final String GARBAGE = "0123456789 +-.,:;sSeE\tGMTZ\u0000\u001b\u2028\u202e\u0665\uff15\ud800";

	private static final DateTimeFormatter RFC_850 = DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
			Locale.US);

	private static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss uuuu", Locale.US);

	private static final long YEAR_1 = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();

	private static final long YEAR_9999 = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private HostileHints() {
	}

	/**
	 * The value as an HTTP header can carry it: only visible ASCII, spaces and tabs.
	 * @param value the value
	 * @return what is left of it
	 */
	public static String sendable(String value) {
		return value.replaceAll("[^\\t\\x20-\\x7e]", "");
	}

	/**
	 * Google's error body for a 503 with one {@code RetryInfo} detail.
	 * @param retryDelay the detail's {@code retryDelay}, any string
	 * @return the JSON body
	 */
	public static String unavailableWithRetryInfo(String retryDelay) {
		return JSON.writeValueAsString(Map.of("error", Map.of("code", 503, "status", "UNAVAILABLE", "message",
				"The service is currently unavailable.", "details",
				List.of(Map.of("@type", "type.googleapis.com/google.rpc.RetryInfo", "retryDelay", retryDelay)))));
	}

	/**
	 * A {@code Retry-After} value.
	 * @param random the source
	 * @param now the time around which dates are drawn, as well as across the whole range of years
	 * @return the value
	 */
	public static String retryAfter(SplittableRandom random, Instant now) {
		return switch (random.nextInt(6)) {
			case 0 -> digits(random, 1 + random.nextInt(40));
			case 1 -> pick(random, "", "", "+", "-", " ", "\t", "0x", "--") + digits(random, 1 + random.nextInt(25))
					+ pick(random, "", "", ".5", ".", ",0", "s", " ", "e3", "\u0000", " GMT");
			case 2 -> date(random, now);
			case 3 -> garbage(random, random.nextInt(60));
			default -> pick(random, RETRY_AFTER_EXTREMES.toArray(String[]::new));
		};
	}

	/**
	 * A {@code retryDelay} value.
	 * @param random the source
	 * @return the value
	 */
	public static String retryInfoDelay(SplittableRandom random) {
		return switch (random.nextInt(4)) {
			case 0 -> pick(random, "", "", "-", "+") + digits(random, 1 + random.nextInt(40))
					+ (random.nextBoolean() ? "." + digits(random, 1 + random.nextInt(12)) : "") + pick(random, "s", "s", "", "ms");
			case 1 -> garbage(random, random.nextInt(40)) + "s";
			default -> pick(random, RETRY_INFO_EXTREMES.toArray(String[]::new));
		};
	}

	private static String date(SplittableRandom random, Instant now) {
		long nearNow = Math.max(YEAR_1, Math.min(YEAR_9999, now.getEpochSecond() + random.nextLong(-200_000, 200_000)));
		long epochSecond = random.nextBoolean() ? random.nextLong(YEAR_1, YEAR_9999 - 86_400) : Math.min(nearNow, YEAR_9999 - 86_400);
		ZonedDateTime when = Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC);
		String text = switch (random.nextInt(5)) {
			case 0 -> DateTimeFormatter.RFC_1123_DATE_TIME.format(when);
			case 1 -> RFC_850.format(when);
			case 2 -> ASCTIME.format(when);
			case 3 -> DateTimeFormatter.ISO_INSTANT.format(when);
			default -> DateTimeFormatter.RFC_1123_DATE_TIME.format(when.plusDays(1)).substring(0, 5)
					+ DateTimeFormatter.RFC_1123_DATE_TIME.format(when).substring(5);
		};
		return random.nextInt(4) == 0 ? text.toLowerCase(Locale.ROOT) : text;
	}

	private static String digits(SplittableRandom random, int length) {
		StringBuilder digits = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			digits.append((char) ('0' + random.nextInt(10)));
		}
		return digits.toString();
	}

	private static String garbage(SplittableRandom random, int length) {
		StringBuilder garbage = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			garbage.append(GARBAGE.charAt(random.nextInt(GARBAGE.length())));
		}
		return garbage.toString();
	}

	private static String pick(SplittableRandom random, String... choices) {
		return choices[random.nextInt(choices.length)];
	}

}
