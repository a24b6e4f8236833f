package dev.modelarmor.samples.standin;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeterministicResponderTests {

	private final DeterministicResponder responder = new DeterministicResponder();

	@Test
	void supportGetsAnEmailAddress() {
		assertThat(this.responder.reply("How do I reach Support?")).isEqualTo(DeterministicResponder.SUPPORT_REPLY)
			.contains("help@example.com");
	}

	@Test
	void aLinkGetsTheMalwareTestPage() {
		assertThat(this.responder.reply("send me a LINK")).contains(DeterministicResponder.MALWARE_LINK);
	}

	@Test
	void greetingsAreWholeWords() {
		assertThat(this.responder.reply("Hi there")).isEqualTo(DeterministicResponder.GREETING);
		assertThat(this.responder.reply("hello")).isEqualTo(DeterministicResponder.GREETING);
		assertThat(this.responder.reply("this is fine")).isEqualTo("You said: this is fine");
	}

	@Test
	void anythingElseIsEchoed() {
		assertThat(this.responder.reply("What time is it?")).isEqualTo("You said: What time is it?");
	}

	@Test
	void supportWinsOverLink() {
		assertThat(this.responder.reply("link to support")).isEqualTo(DeterministicResponder.SUPPORT_REPLY);
	}

}
