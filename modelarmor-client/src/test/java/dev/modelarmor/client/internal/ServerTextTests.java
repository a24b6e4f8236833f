package dev.modelarmor.client.internal;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class ServerTextTests {

	/** Every character that can break or disguise a log line. */
	static final String UNPRINTABLE = "\n\r\t\u0000\u0007\u001b\u007f\u0085\u2028\u2029\u200b\u200e\u200f\u202a"
			+ "\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c\ufeff\ud800\udfff\u0378";

	@Test
	void everyUnprintableCharacterBecomesOneSpaceBetweenWords() {
		for (char c : UNPRINTABLE.toCharArray()) {
			assertThat(ServerText.printable("quota" + c + "exceeded", 100)).as("U+%04X", (int) c)
				.isEqualTo("quota exceeded");
		}
		assertThat(ServerText.printable("quota" + UNPRINTABLE + "exceeded", 100)).isEqualTo("quota exceeded");
	}

	@Test
	void aForgedLogLineStaysOnTheLineItWasPutIn() {
		String forged = "denied\n2026-01-01T00:00:00Z INFO  [main] dev.modelarmor Model Armor call succeeded: outcome=success";
		assertThat(ServerText.printable(forged, 500)).doesNotContain("\n")
			.isEqualTo("denied 2026-01-01T00:00:00Z INFO  [main] dev.modelarmor Model Armor call succeeded: outcome=success");
	}

	@Test
	void ansiEscapesLoseTheirEscapeCharacter() {
		assertThat(ServerText.printable("\u001b[2J\u001b[31mred\u001b[0m", 100)).isEqualTo("[2J [31mred [0m");
	}

	@Test
	void leadingAndTrailingUnprintablesLeaveNoSpace() {
		assertThat(ServerText.printable("\r\n\u202e quota \u202c\n", 100)).isEqualTo("quota");
		assertThat(ServerText.printable("\n\n", 100)).isEmpty();
	}

	@Test
	void printableUnicodeIsKept() {
		assertThat(ServerText.printable("Quota dépassé: 配额 \ud83d\ude00 ok", 100)).isEqualTo("Quota dépassé: 配额 \ud83d\ude00 ok");
	}

	@Test
	void longTextIsCutAtTheLimitWithAnEllipsis() {
		assertThat(ServerText.printable("abcdef", 6)).isEqualTo("abcdef");
		assertThat(ServerText.printable("abcdefg", 6)).isEqualTo("abcdef…");
		assertThat(ServerText.printable("abc\ndef", 6)).isEqualTo("abc de…");
		assertThat(ServerText.printable("abc\ndef", 7)).isEqualTo("abc def");
	}

	@Test
	void aLeadingUnprintableTakesNoRoomFromTheLimit() {
		assertThat(ServerText.printable("\nabcdef", 6)).isEqualTo("abcdef");
		assertThat(ServerText.printable("\n\u202eabcdefg", 6)).isEqualTo("abcdef…");
	}

	@Test
	void aSurrogatePairIsNeverCutInHalf() {
		String emoji = "\ud83d\ude00";
		assertThat(ServerText.printable("abcde" + emoji, 6)).isEqualTo("abcde…");
		assertThat(ServerText.printable("abcd" + emoji, 6)).isEqualTo("abcd" + emoji);
	}

	@Test
	@Timeout(5)
	void aMegabyteOfTextIsCutWithoutReadingIt() {
		String huge = "x".repeat(1 << 20) + "\n" + "y".repeat(1 << 20);
		for (int i = 0; i < 1_000; i++) {
			assertThat(ServerText.printable(huge, 500)).hasSize(501).endsWith("x…");
		}
	}

	@Test
	void randomTextNeverComesOutWithAnUnprintableCharacterOrTooLong() {
		SplittableRandom random = new SplittableRandom(2026);
		for (int i = 0; i < 5_000; i++) {
			StringBuilder text = new StringBuilder();
			int length = random.nextInt(300);
			for (int j = 0; j < length; j++) {
				text.append(random.nextBoolean() ? UNPRINTABLE.charAt(random.nextInt(UNPRINTABLE.length()))
						: (char) random.nextInt(0x10000));
			}
			String printable = ServerText.printable(text.toString(), 200);
			assertThat(printable.length()).isLessThanOrEqualTo(201);
			printable.codePoints().forEach((codePoint) -> assertThat(Character.getType(codePoint)).as("U+%04X", codePoint)
				.isNotIn((int) Character.CONTROL, (int) Character.FORMAT, (int) Character.LINE_SEPARATOR,
						(int) Character.PARAGRAPH_SEPARATOR, (int) Character.SURROGATE, (int) Character.UNASSIGNED));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "A", "_",
			"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKL" })
	void aGoogleStatusNameIsKept(String status) {
		assertThat(ServerText.statusName(status)).isEqualTo(status);
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { "invalid_argument", "INVALID ARGUMENT", "INVALID_ARGUMENT\n", "INVALID_ARGUMENT\u202e",
			"PERMISSION_DENIED\nINFO forged", "403", "A1", "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLM",
			"ÜNAVAILABLE" })
	void anythingElseIsNoStatus(String status) {
		assertThat(ServerText.statusName(status)).isNull();
	}

}
