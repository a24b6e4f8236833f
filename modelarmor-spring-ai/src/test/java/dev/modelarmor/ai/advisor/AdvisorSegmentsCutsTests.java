package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.modelarmor.ai.advisor.AdvisorSegments.Step;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.Generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link AdvisorSegments} on small windows: the exact cuts, in UTF-8 bytes, and the exact text emitted after
 * each window, for plain and de-identified windows.
 */
@Timeout(10)
class AdvisorSegmentsCutsTests {

	private final List<String> screened = new ArrayList<>();

	@Test
	void theOverlapIsFromZeroToHalfOfTheWindow() {
		assertThatNoException().isThrownBy(() -> windows(8, 0, this::pass));
		assertThatNoException().isThrownBy(() -> windows(8, 4, this::pass));
		assertThatNoException().isThrownBy(() -> windows(9, 4, this::pass));
		assertThatIllegalArgumentException().isThrownBy(() -> windows(8, -1, this::pass));
		assertThatIllegalArgumentException().isThrownBy(() -> windows(8, 5, this::pass));
		assertThatIllegalArgumentException().isThrownBy(() -> windows(9, 5, this::pass));
	}

	/**
	 * Twenty one-character chunks of one code point, window 12 bytes, overlap 4: after which chunk how many
	 * characters are emitted, and how many screenings that took. A window is due at 12 bytes waiting of which 8 new; the held part is the
	 * shortest end of at least 4 bytes.
	 */
	@ParameterizedTest(name = "U+{0}")
	@CsvSource(delimiter = '|', value = {
			// 1 byte: due at 12 characters, 4 held.
			"7F    | 12:8 20:8 end:4 | 2",
			// 2 bytes: due at 6 characters, 2 held (4 bytes), then every 4.
			"80    | 6:4 10:4 14:4 18:4 end:4 | 5", "7FF   | 6:4 10:4 14:4 18:4 end:4 | 5",
			// 3 bytes: due at 4 characters, 2 held (6 bytes), then every 3.
			"800   | 4:2 7:3 10:3 13:3 16:3 19:3 end:3 | 7", "FFFF  | 4:2 7:3 10:3 13:3 16:3 19:3 end:3 | 7",
			// 4 bytes (a surrogate pair): due at 3 characters, 1 held, then every 2.
			"10000 | 3:2 5:2 7:2 9:2 11:2 13:2 15:2 17:2 19:2 end:2 | 10" })
	void windowsAreCutInUtf8BytesAtCodePoints(String hex, String cuts, int screenings) {
		String character = Character.toString(Integer.parseInt(hex, 16));
		AdvisorSegments windows = windows(12, 4, this::pass);
		List<String> log = new ArrayList<>();
		StringBuilder emitted = new StringBuilder();
		for (int i = 1; i <= 20; i++) {
			int before = emitted.length() / character.length();
			Step step = windows.accept(AdvisorSegmentsTests.chunk(character));
			if (!step.emit().isEmpty()) {
				log.add(i + ":" + step.emit().size());
				step.emit().forEach((chunk) -> emitted.append(AdvisorSegmentsTests.text(chunk)));
				// The window just screened was everything not emitted before, this chunk included.
				assertThat(this.screened.get(this.screened.size() - 1)).isEqualTo(character.repeat(i - before));
			}
		}
		Step end = windows.finish();
		log.add("end:" + end.emit().size());
		end.emit().forEach((chunk) -> emitted.append(AdvisorSegmentsTests.text(chunk)));
		assertThat(String.join(" ", log)).isEqualTo(cuts);
		assertThat(emitted.toString()).isEqualTo(character.repeat(20));
		// The held part is screened again at the end only when text came after the last window.
		assertThat(windows.screenings()).isEqualTo(this.screened.size()).isEqualTo(screenings);
	}

	@Test
	void withoutOverlapAWindowIsEmittedWholeAtExactlyTheWindowSize() {
		AdvisorSegments windows = windows(8, 0, this::pass);
		List<String> emitted = new ArrayList<>();
		for (String text : List.of("abc", "é", "€", "x", "😀", "z")) {
			windows.accept(AdvisorSegmentsTests.chunk(text)).emit().forEach((c) -> emitted.add(AdvisorSegmentsTests.text(c)));
			emitted.add("|");
		}
		// "abc" 3 + "é" 2 + "€" 3 = 8 bytes; "x" 1 + "😀" 4 + "z" 1 = 6 bytes wait for the end.
		assertThat(String.join("", emitted)).isEqualTo("||abcé€||||");
		assertThat(this.screened).containsExactly("abcé€");
		windows.finish().emit().forEach((c) -> emitted.add(AdvisorSegmentsTests.text(c)));
		assertThat(this.screened).containsExactly("abcé€", "x😀z");
	}

	@Test
	void theHeldPartIsScreenedAgainOnlyWithNewTextAndABlankAnswerIsNotScreened() {
		AdvisorSegments windows = windows(8, 2, this::pass);
		List<String> emitted = emitAll(windows, "a", "b", "c", "d", "e", "f", "g", "h");
		assertThat(emitted).containsExactly("a", "b", "c", "d", "e", "f", "|", "g", "h");
		// "gh" was screened in the window and nothing came after it.
		assertThat(this.screened).containsExactly("abcdefgh");
		assertThat(windows.screenings()).isOne();

		AdvisorSegments blank = windows(8, 2, this::pass);
		assertThat(emitAll(blank, " ", "\n ")).containsExactly("|", " ", "\n ");
		assertThat(blank.screenings()).isZero();
		assertThat(this.screened).hasSize(1);
	}

	@Test
	void toolCallsCountAsScreenings() {
		AdvisorSegments windows = windows(1024, 256, this::pass);
		windows.accept(AdvisorSegmentsTests.chunk("Let me look."));
		windows.accept(AdvisorSegmentsTests.toolCallChunk("lookup", "{}"));
		assertThat(windows.screenings()).isZero();
		assertThat(windows.finish().emit()).hasSize(2);
		assertThat(windows.screenings()).isEqualTo(2);
	}

	@Test
	void aChangeBeforeTheHeldPartIsEmittedDeidentifiedInTheFirstChunk() {
		AdvisorSegments windows = windows(12, 3, mask("XYZ", "***"));
		List<String> emitted = emitAll(windows, "a", "b", "c", "X", "Y", "Z", "g", "h", "i", "j", "k", "l");
		assertThat(emitted).containsExactly("abc***ghi", "", "", "", "", "", "", "", "", "|", "j", "k", "l");
		// The held part was screened as part of a de-identified window: screened again at the end.
		assertThat(this.screened).containsExactly("abcXYZghijkl", "jkl");
	}

	@Test
	void aChangeInTheHeldPartEmitsTheModelsTextUpToItAndScreensTheHeldPartAgain() {
		AdvisorSegments windows = windows(12, 3, mask("XYZ", "***"));
		List<String> emitted = emitAll(windows, "a", "b", "c", "d", "e", "f", "g", "h", "i", "X", "Y", "Z");
		// The common prefix "abcdefghi" ends exactly where the held part starts.
		assertThat(emitted).containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "|", "***", "", "");
		assertThat(this.screened).containsExactly("abcdefghiXYZ", "XYZ");
	}

	@Test
	void aChangeAcrossTheStartOfTheHeldPartHoldsTheChunksFromTheChangeOn() {
		AdvisorSegments windows = windows(12, 3, mask("XYZ", "***"));
		List<String> emitted = emitAll(windows, "a", "b", "c", "d", "e", "f", "g", "h", "X", "Y", "Z", "W");
		assertThat(emitted).containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "|", "***W", "", "", "");
		assertThat(this.screened).containsExactly("abcdefghXYZW", "XYZW");
	}

	@Test
	void aChangeAtTheStartAndInTheHeldPartHoldsEverything() {
		AdvisorSegments windows = windows(12, 3, mask("XYZ", "***"));
		List<String> emitted = emitAll(windows, "X", "Y", "Z", "d", "e", "f", "g", "h", "i", "X", "Y", "Z");
		assertThat(emitted).containsExactly("|", "***defghi***", "", "", "", "", "", "", "", "", "", "", "");
		assertThat(this.screened).containsExactly("XYZdefghiXYZ", "XYZdefghiXYZ");
	}

	@Test
	void aDeidentifiedTextThatDropsTheHeldPartEmitsTheModelsTextBeforeIt() {
		AdvisorSegments windows = windows(12, 3, mask("XYZ", ""));
		List<String> emitted = emitAll(windows, "a", "b", "c", "d", "e", "f", "g", "h", "i", "X", "Y", "Z");
		assertThat(emitted).containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "|", "", "", "");
	}

	@Test
	void aChangeInsideASurrogatePairSplitAcrossChunksNeverEmitsHalfOfIt() {
		// The model's 😀 (D83D DE00) is de-identified to 😁 (D83D DE01): they share the high surrogate.
		Function<String, ScreeningDecision> mask = (text) -> {
			this.screened.add(text);
			String rewritten = text.replace("😀", "😁").replace("XYZ", "***");
			return rewritten.equals(text) ? ScreeningDecision.PASS : new Deidentified(rewritten);
		};
		AdvisorSegments windows = new AdvisorSegments(12, 3, mask, this::pass);
		List<String> emitted = emitAll(windows, "ab", "\uD83D", "\uDE00cd", "efXYZ");
		assertThat(emitted).containsExactly("ab", "|", "😁cdef***", "", "");
		assertThat(String.join("", emitted)).doesNotContain("😀").doesNotContain("\uD83D|");
	}

	@Test
	void chunksWithFewerGenerationsCarryTheirOwnText() {
		AdvisorSegments windows = windows(1024, 256, mask("XYZ", "***"));
		windows.accept(AdvisorSegmentsTests.chunk("abcdef", "XYZ"));
		windows.accept(AdvisorSegmentsTests.chunk("ghijkl"));
		windows.accept(AdvisorSegmentsTests.chunk("mnop"));
		List<List<String>> emitted = windows.finish().emit().stream().map(AdvisorSegmentsCutsTests::texts).toList();
		assertThat(emitted).containsExactly(List.of("abcdef", "***"), List.of("ghijkl"), List.of("mnop"));
		assertThat(this.screened).containsExactlyInAnyOrder("abcdefghijklmnop", "XYZ");
	}

	@Test
	void aGenerationShorterThanTheOverlapHoldsEveryChunkUntilItsTextIsScreenedWhole() {
		AdvisorSegments windows = windows(8, 2, this::pass);
		assertThat(windows.accept(AdvisorSegmentsTests.chunk("abcd", "z")).emit()).isEmpty();
		// The first generation's window is due, but all of the second's text is its held part.
		assertThat(windows.accept(AdvisorSegmentsTests.chunk("efgh", "")).emit()).isEmpty();
		assertThat(this.screened).containsExactlyInAnyOrder("abcdefgh", "z");
		List<List<String>> emitted = windows.finish().emit().stream().map(AdvisorSegmentsCutsTests::texts).toList();
		assertThat(emitted).containsExactly(List.of("abcd", "z"), List.of("efgh", ""));
		assertThat(windows.screenings()).isEqualTo(2);
	}

	@Test
	void aChunkWithNoneOfTheDeidentifiedGenerationsTextIsEmittedAsTheModelSentIt() {
		AdvisorSegments windows = windows(8, 2, mask("XYZ", "***"));
		ChatClientResponse first = AdvisorSegmentsTests.chunk("abcd", "");
		assertThat(windows.accept(first).emit()).isEmpty();
		List<ChatClientResponse> step = windows.accept(AdvisorSegmentsTests.chunk("efgh", "XYZ")).emit();
		assertThat(step).hasSize(1).first().isSameAs(first);
		List<List<String>> emitted = windows.finish().emit().stream().map(AdvisorSegmentsCutsTests::texts).toList();
		assertThat(emitted).containsExactly(List.of("efgh", "***"));
	}

	/** Each chunk alone, then the end: the texts emitted, {@code |} marking the end of the stream. */
	private static List<String> emitAll(AdvisorSegments windows, String... chunks) {
		List<String> emitted = new ArrayList<>();
		for (String text : chunks) {
			Step step = windows.accept(AdvisorSegmentsTests.chunk(text));
			assertThat(step.refusal()).isNull();
			step.emit().forEach((c) -> emitted.add(AdvisorSegmentsTests.text(c)));
		}
		emitted.add("|");
		Step end = windows.finish();
		assertThat(end.refusal()).isNull();
		end.emit().forEach((c) -> emitted.add(AdvisorSegmentsTests.text(c)));
		return emitted;
	}

	private static List<String> texts(ChatClientResponse response) {
		List<String> texts = new ArrayList<>();
		for (Generation generation : response.chatResponse().getResults()) {
			String text = generation.getOutput().getText();
			texts.add((text != null) ? text : "");
		}
		return texts;
	}

	private AdvisorSegments windows(int window, int overlap, Function<String, ScreeningDecision> screen) {
		return new AdvisorSegments(window, overlap, screen, (text) -> ScreeningDecision.PASS);
	}

	private Function<String, ScreeningDecision> mask(String secret, String replacement) {
		return (text) -> {
			this.screened.add(text);
			return text.contains(secret) ? new Deidentified(text.replace(secret, replacement)) : ScreeningDecision.PASS;
		};
	}

	private ScreeningDecision pass(String text) {
		this.screened.add(text);
		return ScreeningDecision.PASS;
	}

}
