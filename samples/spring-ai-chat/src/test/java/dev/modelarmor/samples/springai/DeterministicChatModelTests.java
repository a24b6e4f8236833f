package dev.modelarmor.samples.springai;

import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingManager;

import static org.assertj.core.api.Assertions.assertThat;

class DeterministicChatModelTests {

	private final DeterministicChatModel model = new DeterministicChatModel(ToolCallingManager.builder().build());

	@Test
	void supportGetsAnEmailAddress() {
		assertThat(DeterministicChatModel.answer("How do I reach Support?")).isEqualTo(DeterministicChatModel.SUPPORT_REPLY)
			.contains("help@example.com");
	}

	@Test
	void aLinkGetsTheMalwareTestPage() {
		assertThat(DeterministicChatModel.answer("send me a LINK")).contains(DeterministicChatModel.MALWARE_LINK);
	}

	@Test
	void greetingsAreWholeWordsAndAnythingElseIsEchoed() {
		assertThat(DeterministicChatModel.answer("Hi there")).isEqualTo(DeterministicChatModel.GREETING);
		assertThat(DeterministicChatModel.answer("this is fine")).isEqualTo("You said: this is fine");
	}

	@Test
	void aCallAnswersTheUserMessageAndIsRecorded() {
		ChatResponse response = this.model.call(new Prompt("hello"));

		assertThat(response.getResult().getOutput().getText()).isEqualTo(DeterministicChatModel.GREETING);
		assertThat(this.model.calls()).isEqualTo(1);
		assertThat(this.model.receivedUserTexts()).containsExactly("hello");
	}

	@Test
	void aStreamSendsTheSameAnswerInAFewChunks() {
		Flux<ChatResponse> stream = this.model.stream(new Prompt("hello"));

		List<String> chunks = stream.map((response) -> response.getResult().getOutput().getText()).collectList().block();

		assertThat(chunks).hasSize(3);
		assertThat(String.join("", chunks)).isEqualTo(DeterministicChatModel.GREETING);
		assertThat(this.model.calls()).isEqualTo(1);
	}

	@Test
	void chunksKeepEveryCharacter() {
		assertThat(DeterministicChatModel.chunks("one")).containsExactly("one");
		assertThat(DeterministicChatModel.chunks("  a b  c d ")).containsExactly("  a b  ", "c d ");
		assertThat(DeterministicChatModel.chunks("")).containsExactly("");
	}

}
