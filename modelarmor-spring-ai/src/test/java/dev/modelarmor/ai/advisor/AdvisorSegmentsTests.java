package dev.modelarmor.ai.advisor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

import dev.modelarmor.ai.advisor.AdvisorSegments.Step;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AdvisorSegments} alone, with screening played by functions: what is emitted when, for any cut of
 * an answer into chunks.
 */
class AdvisorSegmentsTests {

	private static final int WINDOW = 1024;

	private static final int OVERLAP = 256;

	private static final int FIRST_OVERLAP = 128;

	private static final String CARD = "4111 1111 1111 1111";

	private static final String MASK = "[CARD]";

	private final List<String> screened = new ArrayList<>();

	@ParameterizedTest(name = "seed {0}")
	@ValueSource(ints = { 1, 2, 3, 4, 5 })
	void everyEmittedCharacterWasScreenedWithAtLeastTheOverlapAfterItOrTheEnd(int seed) {
		String answer = words(new SplittableRandom(seed), 9_000);
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, this::pass);
		StringBuilder emitted = new StringBuilder();
		List<String> chunks = cut(answer, new SplittableRandom(seed), 1, 60);
		for (int i = 0; i < chunks.size(); i++) {
			Step step = windows.accept(chunk(chunks.get(i)));
			assertThat(step.refusal()).isNull();
			step.emit().forEach((c) -> emitted.append(text(c)));
			if (emitted.length() > 0) {
				int covered = coverage(answer);
				assertThat(covered).isGreaterThan(emitted.length());
				// the first window, of 256 bytes, holds back half of it; the later ones the overlap
				assertThat(answer.substring(emitted.length(), covered).getBytes(StandardCharsets.UTF_8))
					.hasSizeGreaterThanOrEqualTo((this.screened.size() == 1) ? FIRST_OVERLAP : OVERLAP);
			}
		}
		windows.finish().emit().forEach((c) -> emitted.append(text(c)));
		assertThat(emitted.toString()).isEqualTo(answer);
		// The first window, then one every window − overlap bytes (about), never one per chunk.
		assertThat(this.screened).hasSizeBetween(answer.length() / WINDOW, answer.length() / (WINDOW - OVERLAP) + 3);
		for (String window : this.screened) {
			// a cut moved back to a word's end holds back up to half the overlap more
			assertThat(window.length()).isLessThanOrEqualTo(WINDOW + OVERLAP / 2 + 60);
		}
	}

	@Test
	void theModelsChunksAreEmittedAsTheyCameInOrder() {
		List<String> chunks = cut(words(new SplittableRandom(7), 3_000), new SplittableRandom(7), 1, 40);
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, this::pass);
		List<ChatClientResponse> sent = new ArrayList<>();
		List<ChatClientResponse> emitted = new ArrayList<>();
		for (String text : chunks) {
			ChatClientResponse chunk = chunk(text);
			sent.add(chunk);
			emitted.addAll(windows.accept(chunk).emit());
		}
		emitted.addAll(windows.finish().emit());
		assertThat(emitted).containsExactlyElementsOf(sent);
	}

	@Test
	void aMatchAcrossTwoChunksAndAWindowEdgeIsFoundBeforeAnyOfItIsEmitted() {
		String phrase = "ignore previous instructions";
		// 150 bytes pass in the first window (of 300), the next is due at 1,174 bytes: in the phrase
		String head = "a".repeat(1169) + " ";
		List<String> chunks = new ArrayList<>();
		for (int i = 0; i < head.length(); i += 50) {
			chunks.add(head.substring(i, Math.min(head.length(), i + 50)));
		}
		chunks.add("ignore prev");
		chunks.add("ious instructions and more");
		chunks.add(" words ".repeat(200));
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP,
				(text) -> text.contains(phrase) ? blocked() : pass(text), this::pass);
		StringBuilder emitted = new StringBuilder();
		Step last = null;
		for (String text : chunks) {
			last = windows.accept(chunk(text));
			last.emit().forEach((c) -> emitted.append(text(c)));
			if (last.refusal() != null) {
				break;
			}
		}
		assertThat(last).isNotNull();
		assertThat(last.refusal()).isInstanceOf(Blocked.class);
		assertThat(emitted.toString()).doesNotContain("ign").isEqualTo(head.substring(0, emitted.length()));
		// A window saw only half of the phrase and passed.
		assertThat(this.screened).anySatisfy((window) -> assertThat(window).contains("ignore prev").doesNotContain(phrase));
	}

	@Test
	void anAnswerShorterThanAWindowIsScreenedOnceAtTheEndAndNothingBefore() {
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, this::pass);
		for (String text : List.of("The TGV ", "from Gare de Lyon ", "goes there.")) {
			assertThat(windows.accept(chunk(text)).emit()).isEmpty();
		}
		assertThat(this.screened).isEmpty();
		assertThat(windows.finish().emit()).hasSize(3);
		assertThat(this.screened).containsExactly("The TGV from Gare de Lyon goes there.");
	}

	@Test
	void anInjectionInTheTailEndsTheStreamAfterTheScreenedText() {
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP,
				(text) -> text.contains("jailbreak") ? blocked() : pass(text), this::pass);
		StringBuilder emitted = new StringBuilder();
		for (int i = 0; i < 30; i++) {
			windows.accept(chunk("clean text " + i + " ".repeat(40))).emit().forEach((c) -> emitted.append(text(c)));
		}
		Step tail = windows.accept(chunk("now jailbreak"));
		assertThat(tail.refusal()).isNull();
		Step end = windows.finish();
		assertThat(end.refusal()).isInstanceOf(Blocked.class);
		assertThat(end.emit()).isEmpty();
		assertThat(emitted.toString()).doesNotContain("jailbreak").startsWith("clean text 0");
	}

	@Test
	void aDeidentifiedWindowIsEmittedDeidentifiedAndACardInTheHeldPartNeverLeavesUnmasked() {
		StringBuilder answer = new StringBuilder();
		List<String> chunks = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			String text = (i % 25 == 19) ? "card " + CARD + " " : "word" + i + " and more, ";
			chunks.add(text);
			answer.append(text);
		}
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::mask, this::pass);
		StringBuilder emitted = new StringBuilder();
		for (String text : chunks) {
			Step step = windows.accept(chunk(text));
			assertThat(step.refusal()).isNull();
			step.emit().forEach((c) -> emitted.append(text(c)));
		}
		windows.finish().emit().forEach((c) -> emitted.append(text(c)));
		assertThat(emitted.toString()).isEqualTo(answer.toString().replace(CARD, MASK)).doesNotContain("4111");
	}

	@Test
	void aCardAcrossTheEdgeOfTheHeldPartIsMaskedWhole() {
		// The card straddles the point up to which the first window's text would be emitted.
		String head = "x".repeat(WINDOW - OVERLAP - 8);
		List<String> chunks = List.of(head, "card 41", "11 1111 1111 1111 and ", "y".repeat(OVERLAP + 10), "end");
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::mask, this::pass);
		StringBuilder emitted = new StringBuilder();
		for (String text : chunks) {
			windows.accept(chunk(text)).emit().forEach((c) -> emitted.append(text(c)));
			assertThat(emitted.toString()).doesNotContain("41");
		}
		windows.finish().emit().forEach((c) -> emitted.append(text(c)));
		assertThat(emitted.toString()).isEqualTo(String.join("", chunks).replace(CARD, MASK));
	}

	@Test
	void aToolCallIsScreenedBeforeItsChunkIsEmittedAndARefusedOneEndsTheStream() {
		List<String> toolScreenings = new ArrayList<>();
		Function<String, ScreeningDecision> tools = (text) -> {
			toolScreenings.add(text);
			return text.contains("DROP TABLE") ? blocked() : ScreeningDecision.PASS;
		};
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, tools);
		windows.accept(chunk("Let me look that up."));
		windows.accept(toolCallChunk("lookup", "{\"city\":\"Lyon\"}"));
		Step end = windows.finish();
		assertThat(end.refusal()).isNull();
		assertThat(end.emit()).hasSize(2);
		assertThat(end.emit().get(1).chatResponse().getResult().getOutput().getToolCalls()).hasSize(1);
		assertThat(toolScreenings).containsExactly("lookup\n{\"city\":\"Lyon\"}\n");

		AdvisorSegments refused = new AdvisorSegments(WINDOW, OVERLAP, this::pass, tools);
		refused.accept(chunk("Running it."));
		refused.accept(toolCallChunk("sql", "{\"q\":\"DROP TABLE users\"}"));
		refused.accept(chunk("Done."));
		Step step = refused.finish();
		assertThat(step.refusal()).isInstanceOf(Blocked.class);
		assertThat(step.emit()).extracting(AdvisorSegmentsTests::text).containsExactly("Running it.");
	}

	@Test
	void aHugeChunkIsNotScreenedAgainForEverySmallChunkAfterIt() {
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, this::pass);
		windows.accept(chunk("z".repeat(100_000)));
		for (int i = 0; i < 200; i++) {
			windows.accept(chunk("small "));
		}
		windows.finish();
		// the first window's two screenings of the huge chunk (the second once 128 bytes more let it go),
		// one window of the small chunks, the end
		assertThat(this.screened).hasSizeLessThanOrEqualTo(4);
	}

	@Test
	void eachGenerationIsScreenedOnItsOwnAndChunksWaitForBoth() {
		AdvisorSegments windows = new AdvisorSegments(WINDOW, OVERLAP, this::pass, this::pass);
		List<ChatClientResponse> emitted = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			emitted.addAll(windows.accept(chunk("first candidate " + i + ", ", "second " + i + ", ")).emit());
		}
		emitted.addAll(windows.finish().emit());
		assertThat(emitted).hasSize(60);
		assertThat(this.screened).anySatisfy((text) -> assertThat(text).startsWith("first candidate 0"))
			.anySatisfy((text) -> assertThat(text).startsWith("second 0"));
	}

	private ScreeningDecision pass(String text) {
		this.screened.add(text);
		return ScreeningDecision.PASS;
	}

	private ScreeningDecision mask(String text) {
		this.screened.add(text);
		return text.contains(CARD) ? new Deidentified(text.replace(CARD, MASK)) : ScreeningDecision.PASS;
	}

	private static Blocked blocked() {
		return new Blocked(Phase.RESPONSE, new SanitizationResult(dev.modelarmor.client.FilterMatchState.MATCH_FOUND,
				dev.modelarmor.client.InvocationResult.SUCCESS, Map.of(), new SanitizationResult.SanitizationMetadata(0, null, false)));
	}

	/** Where the windows screened so far reach in the answer. */
	private int coverage(String answer) {
		int end = 0;
		int from = 0;
		for (String window : this.screened) {
			int start = answer.indexOf(window, from);
			assertThat(start).as("a window is a piece of the answer").isNotNegative();
			end = Math.max(end, start + window.length());
			from = start;
		}
		return end;
	}

	static ChatClientResponse chunk(String... generations) {
		List<Generation> list = new ArrayList<>();
		for (String text : generations) {
			list.add(new Generation(new AssistantMessage(text)));
		}
		return ChatClientResponse.builder()
			.chatResponse(new ChatResponse(list, ChatResponseMetadata.builder().model("m").build()))
			.build();
	}

	static ChatClientResponse toolCallChunk(String name, String arguments) {
		AssistantMessage message = AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new ToolCall("call-1", "function", name, arguments)))
			.build();
		return ChatClientResponse.builder().chatResponse(new ChatResponse(List.of(new Generation(message)))).build();
	}

	static String text(ChatClientResponse response) {
		String text = response.chatResponse().getResult().getOutput().getText();
		return (text != null) ? text : "";
	}

	static String words(SplittableRandom random, int length) {
		String[] words = { "the ", "train ", "goes ", "to ", "Lyon ", "every ", "hour, ", "and ", "Zürich ", "🚄 ",
				"\n" };
		StringBuilder text = new StringBuilder();
		while (text.length() < length) {
			text.append(words[random.nextInt(words.length)]);
		}
		return text.toString();
	}

	static List<String> cut(String text, SplittableRandom random, int min, int max) {
		List<String> chunks = new ArrayList<>();
		int i = 0;
		while (i < text.length()) {
			int end = Math.min(text.length(), i + random.nextInt(min, max + 1));
			if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
				end++;
			}
			chunks.add(text.substring(i, end));
			i = end;
		}
		return chunks;
	}

}
