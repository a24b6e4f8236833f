package dev.modelarmor.screening;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.text.Normalizer.Form;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.screening.WindowCutter.Plan;
import dev.modelarmor.screening.WindowCutter.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link WindowCutter} cuts text, and the size measure it cuts by ({@link NormalizedUtf8}): pure unit
 * tests over seeded random texts of many scripts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WindowCutterTests {

	/** Pieces random texts are made of: every kind of character whose size differs by form. */
	private static final List<String> PIECES = List.of("word", "padding", "the", "quick", "brown", " ", " ", " ",
			"\n", "\r\n", "\t", "\u00A0", "\u3000", "日本語", "テキスト", "한국어", "문장", "😀", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\uD83D\uDC4D\uD83C\uDFFD",
			"\uFDFA", "\uFDFA\uFDFA", "a\u0301", "\u00E1\u0323", "\u1E9B\u0323", "\u212B", "ﬁ", "①", "㌀",
			"\u0645\u0631\u062D\u0628\u0627", "\uD800", "\uDC00", "Ω", "ä", "ß", "4111 1111 1111 1111");

	@Test
	void everyWindowFitsItsSizeInEveryNormalFormOverRandomTexts() {
		SplittableRandom random = new SplittableRandom(13);
		for (int round = 0; round < 80; round++) {
			WindowSettings settings = randomSettings(random);
			String text = randomText(random, random.nextInt(0, 40_000));
			Plan plan = WindowCutter.split(text, settings);
			assertThat(plan.complete()).isTrue();
			for (Window window : plan.windows()) {
				String part = window.of(text);
				assertThat(NormalizedUtf8.cost(part)).as("measured size").isLessThanOrEqualTo(settings.size());
				assertThat(utf8(part)).as("UTF-8 as written").isLessThanOrEqualTo(settings.size());
				assertThat(utf8(Normalizer.normalize(part, Form.NFKC))).as("UTF-8 after NFKC")
					.isLessThanOrEqualTo(settings.size());
				assertThat(utf8(Normalizer.normalize(part, Form.NFC))).as("UTF-8 after NFC")
					.isLessThanOrEqualTo(settings.size());
				assertThat(Normalizer.normalize(part, Form.NFKD).codePointCount(0,
						Normalizer.normalize(part, Form.NFKD).length()))
					.as("characters after NFKD")
					.isLessThanOrEqualTo(settings.size());
			}
		}
	}

	@Test
	void windowsCoverTheTextExactlyAndConsecutiveOnesShareAtLeastTheOverlap() {
		SplittableRandom random = new SplittableRandom(17);
		for (int round = 0; round < 150; round++) {
			WindowSettings settings = randomSettings(random);
			String text = randomText(random, random.nextInt(1, 40_000));
			List<Window> windows = WindowCutter.split(text, settings).windows();
			assertThat(windows.get(0).start()).isZero();
			assertThat(windows.get(windows.size() - 1).end()).isEqualTo(text.length());
			for (int i = 1; i < windows.size(); i++) {
				Window earlier = windows.get(i - 1);
				Window later = windows.get(i);
				assertThat(later.start()).as("starts move on").isGreaterThan(earlier.start());
				assertThat(later.end()).as("ends move on").isGreaterThan(earlier.end());
				assertThat(later.start()).as("no gap").isLessThanOrEqualTo(earlier.end());
				assertThat(NormalizedUtf8.cost(text.substring(later.start(), earlier.end())))
					.as("shared bytes").isGreaterThanOrEqualTo(settings.overlap());
			}
		}
	}

	@Test
	void anySpanShorterThanTheOverlapLiesWholeInOneWindow() {
		SplittableRandom random = new SplittableRandom(19);
		for (int round = 0; round < 60; round++) {
			WindowSettings settings = new WindowSettings(random.nextInt(1024, 4096), 0, 1, 1000);
			settings = new WindowSettings(settings.size(), random.nextInt(64, settings.size() / 2), 1, 1000);
			String text = randomText(random, 30_000);
			List<Window> windows = WindowCutter.split(text, settings).windows();
			for (int probe = 0; probe < 200; probe++) {
				int start = random.nextInt(text.length());
				if (start > 0 && Character.isLowSurrogate(text.charAt(start))
						&& Character.isHighSurrogate(text.charAt(start - 1))) {
					start--;
				}
				// The longest span from start that measures less than the overlap.
				int end = start;
				long cost = 0;
				while (end < text.length()) {
					int codePoint = text.codePointAt(end);
					if (cost + NormalizedUtf8.cost(codePoint) >= settings.overlap()) {
						break;
					}
					cost += NormalizedUtf8.cost(codePoint);
					end += Character.charCount(codePoint);
				}
				int spanStart = start;
				int spanEnd = end;
				assertThat(windows).as("span [%d, %d)", spanStart, spanEnd)
					.anyMatch((window) -> window.start() <= spanStart && spanEnd <= window.end());
			}
		}
	}

	@Test
	void noCutSplitsASurrogatePair() {
		String emoji = "😀🎉👍🏽𝔘".repeat(20_000);
		for (WindowSettings settings : List.of(WindowSettings.DEFAULTS, new WindowSettings(1025, 511, 1, 1000),
				new WindowSettings(1027, 0, 1, 1000))) {
			for (Window window : WindowCutter.split(emoji, settings).windows()) {
				assertThat(Character.isLowSurrogate(emoji.charAt(window.start()))).isFalse();
				assertThat(window.end() == emoji.length() || !Character.isLowSurrogate(emoji.charAt(window.end())))
					.isTrue();
			}
		}
	}

	@Test
	void textThatFitsIsOneWindowAndEmptyTextIsOneEmptyWindow() {
		String fits = "a".repeat(8192);
		assertThat(WindowCutter.split(fits, WindowSettings.DEFAULTS).windows()).containsExactly(new Window(0, 8192));
		assertThat(WindowCutter.split(fits + "a", WindowSettings.DEFAULTS).windows()).hasSize(2);
		assertThat(WindowCutter.split("", WindowSettings.DEFAULTS).windows()).containsExactly(new Window(0, 0));
	}

	@Test
	void withoutWhiteSpaceWindowsAreExactlyTheSizeAndOverlap() {
		String text = "x".repeat(20_000);
		List<Window> windows = WindowCutter.split(text, WindowSettings.DEFAULTS).windows();
		assertThat(windows).containsExactly(new Window(0, 8192), new Window(7168, 15360), new Window(14336, 20_000));
	}

	@Test
	void aWindowEndsAfterTheLastLineBreakOrElseTheLastSpaceNearItsLimit() {
		String words = "word ".repeat(3000);
		List<Window> windows = WindowCutter.split(words, WindowSettings.DEFAULTS).windows();
		assertThat(windows.get(0).end()).isEqualTo(8190);
		assertThat(words.charAt(windows.get(0).end() - 1)).isEqualTo(' ');
		// A line break within the last tenth wins over the spaces after it.
		StringBuilder lines = new StringBuilder(words);
		lines.setCharAt(7500, '\n');
		assertThat(WindowCutter.split(lines.toString(), WindowSettings.DEFAULTS).windows().get(0).end())
			.isEqualTo(7501);
		// One further back than the last tenth does not.
		lines = new StringBuilder(words);
		lines.setCharAt(7300, '\n');
		assertThat(WindowCutter.split(lines.toString(), WindowSettings.DEFAULTS).windows().get(0).end())
			.isEqualTo(8190);
	}

	@Test
	void theLastTenthOfAWindowIsExactlyWhereACutMayMoveBack() {
		// 819 bytes (a tenth of 8192) before the hard end, a space still counts; 820 bytes before, not.
		StringBuilder text = new StringBuilder("x".repeat(20_000));
		text.setCharAt(8192 - 819, ' ');
		assertThat(WindowCutter.split(text.toString(), WindowSettings.DEFAULTS).windows().get(0).end())
			.isEqualTo(8192 - 818);
		text = new StringBuilder("x".repeat(20_000));
		text.setCharAt(8192 - 820, ' ');
		assertThat(WindowCutter.split(text.toString(), WindowSettings.DEFAULTS).windows().get(0).end())
			.isEqualTo(8192);
	}

	@Test
	void aWindowStartsAtAWordOnlyWhenOneBeginsWithinATenthOfAWindow() {
		// The window after [0, 8192) starts 1024 bytes before its end, at 7168, or at a word that begins
		// at most 819 bytes before that.
		StringBuilder text = new StringBuilder("x".repeat(20_000));
		text.setCharAt(7168 - 820, ' ');
		assertThat(WindowCutter.split(text.toString(), WindowSettings.DEFAULTS).windows().get(1).start())
			.isEqualTo(7168 - 819);
		text = new StringBuilder("x".repeat(20_000));
		text.setCharAt(7168 - 821, ' ');
		assertThat(WindowCutter.split(text.toString(), WindowSettings.DEFAULTS).windows().get(1).start())
			.isEqualTo(7168);
	}

	@Test
	void aWindowAfterTheFirstStartsAWord() {
		String words = "alpha beta gamma delta ".repeat(2000);
		List<Window> windows = WindowCutter.split(words, WindowSettings.DEFAULTS).windows();
		assertThat(windows).hasSizeGreaterThan(3);
		for (Window window : windows.subList(1, windows.size())) {
			assertThat(words.charAt(window.start() - 1)).isEqualTo(' ');
			assertThat(words.charAt(window.start())).isNotEqualTo(' ');
		}
	}

	@Test
	void aWindowHoldsAtMostSizeOverThirtyThreeOfTheLongestCharacter() {
		String ligatures = "\uFDFA".repeat(10_000);
		List<Window> windows = WindowCutter.split(ligatures, WindowSettings.DEFAULTS).windows();
		assertThat(windows).allSatisfy((window) -> {
			assertThat(window.end() - window.start()).isLessThanOrEqualTo(8192 / 33);
			assertThat(utf8(Normalizer.normalize(window.of(ligatures), Form.NFKC))).isLessThanOrEqualTo(8192);
		});
	}

	@Test
	void stopsCuttingAfterTheMostWindowsEvenForHugeText() {
		String huge = "harmless padding ".repeat(600_000);
		Plan plan = WindowCutter.split(huge, WindowSettings.DEFAULTS);
		assertThat(plan.complete()).isFalse();
		assertThat(plan.windows()).hasSize(64);
		assertThat(plan.windows().get(63).end()).isBetween(64 * 6000, 64 * 8192);
		Plan exact = WindowCutter.split(huge.substring(0, plan.windows().get(62).end() + 100),
				WindowSettings.DEFAULTS);
		assertThat(exact.complete()).isTrue();
		assertThat(exact.windows()).hasSize(64);
	}

	@Test
	void theTailKeepsWholeCodePointsWithinTheBytes() {
		assertThat(WindowCutter.tail("short", 1024)).isEqualTo("short");
		assertThat(WindowCutter.tail("abcdef", 3)).isEqualTo("def");
		assertThat(WindowCutter.tail("a😀😀", 7)).isEqualTo("😀");
		assertThat(WindowCutter.tail("a\uFDFA", 32)).isEmpty();
		assertThat(WindowCutter.tail("anything", 0)).isEmpty();
	}

	@Test
	void theMeasureOfEveryCodePointBoundsItsSizeInEveryFormAndNeverPassesThirtyThree() {
		int largest = 0;
		for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
			String alone = Character.toString(codePoint);
			// Measured afresh, not read from the table that earlier tests filled.
			int cost = NormalizedUtf8.measure(codePoint);
			largest = Math.max(largest, cost);
			assertThat(NormalizedUtf8.cost(codePoint)).isEqualTo(cost);
			if (Character.isSurrogate((char) codePoint) && codePoint < 0x10000) {
				assertThat(cost).isEqualTo(3);
				continue;
			}
			assertThat(cost).as("U+%X", codePoint)
				.isGreaterThanOrEqualTo(utf8(alone))
				.isGreaterThanOrEqualTo(utf8(Normalizer.normalize(alone, Form.NFKC)))
				.isGreaterThanOrEqualTo(utf8(Normalizer.normalize(alone, Form.NFC)));
		}
		assertThat(largest).isEqualTo(NormalizedUtf8.MAX_CODE_POINT_COST);
		assertThat(NormalizedUtf8.cost(0xFDFA)).isEqualTo(33);
	}

	@Test
	void theMeasureBoundsNfkcWhereCountingEachCodePointsNfkcWouldNot() {
		// á is 2 bytes after NFKC on its own, U+0323 is 2; together NFKC gives ạ (3) + U+0301 (2).
		String pair = "\u00E1\u0323";
		int perCodePointNfkc = utf8(Normalizer.normalize("\u00E1", Form.NFKC))
				+ utf8(Normalizer.normalize("\u0323", Form.NFKC));
		assertThat(utf8(Normalizer.normalize(pair, Form.NFKC))).isGreaterThan(perCodePointNfkc)
			.isLessThanOrEqualTo((int) NormalizedUtf8.cost(pair));
	}

	@Test
	void hangulCountsAsWrittenBecauseNfkcRecomposesIt() {
		String korean = "한국어 문장입니다 ".repeat(500);
		assertThat(NormalizedUtf8.cost(korean)).isEqualTo(utf8(korean))
			.isEqualTo(utf8(Normalizer.normalize(korean, Form.NFKC)));
	}

	private static WindowSettings randomSettings(SplittableRandom random) {
		int size = random.nextInt(WindowSettings.MIN_SIZE, 9000);
		return new WindowSettings(size, random.nextInt(0, size / 2 + 1), 1, 10_000);
	}

	static String randomText(SplittableRandom random, int length) {
		StringBuilder text = new StringBuilder(length + 32);
		while (text.length() < length) {
			text.append(PIECES.get(random.nextInt(PIECES.size())));
		}
		return text.toString();
	}

	private static int utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8).length;
	}

}
