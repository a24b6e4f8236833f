package dev.modelarmor.guard;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorViolationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.deidentified;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link MatchAction#DEIDENTIFY} writes the de-identified text back into the argument that was screened,
 * and into no other, for every way a prompt can be named, on methods with several text arguments: the
 * body receives every other argument as the caller passed it. A prompt that is not a whole argument
 * cannot be replaced and blocks.
 */
class DeidentifiedArgumentTests {

	static final String CARD_PROMPT = "my card is 4111 1111 1111 1111";

	static final String MASKED = "my card is [CREDIT_CARD_NUMBER]";

	static final String CONTEXT = "The customer asks about their balance";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(Briefings.class);

	@BeforeEach
	void deidentifyTheCard() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, CARD_PROMPT, deidentified(MASKED));
	}

	@Test
	void aPromptNamedByItsParameterIsReplacedInThatArgument() {
		assertBodyReceived((briefing) -> briefing.byName(CONTEXT, CARD_PROMPT), CONTEXT, MASKED);
	}

	@Test
	void aPromptNamedByItsParameterWithSpacesAroundIsReplacedInThatArgument() {
		assertBodyReceived((briefing) -> briefing.byPaddedName(CONTEXT, CARD_PROMPT), CONTEXT, MASKED);
	}

	@Test
	void aPromptNamedByPIndexIsReplacedInThatArgument() {
		assertBodyReceived((briefing) -> briefing.byP(CONTEXT, CARD_PROMPT), CONTEXT, MASKED);
	}

	@Test
	void aPromptNamedByAIndexIsReplacedInThatArgument() {
		assertBodyReceived((briefing) -> briefing.byA(CONTEXT, CARD_PROMPT), CONTEXT, MASKED);
	}

	@Test
	void theFirstArgumentNamedByP0IsReplacedAndTheSecondIsNot() {
		assertBodyReceived((briefing) -> briefing.byP0(CARD_PROMPT, CARD_PROMPT), MASKED, CARD_PROMPT);
	}

	@Test
	void theDefaultPromptIsTheFirstTextArgumentAndOnlyItIsReplaced() {
		assertBodyReceived((briefing) -> briefing.byDefault(CARD_PROMPT, CARD_PROMPT), MASKED, CARD_PROMPT);
	}

	@Test
	void theDefaultPromptAfterANonTextArgumentIsReplacedWhereItIs() {
		assertBodyReceived((briefing) -> briefing.byDefaultAfterALimit(3, CARD_PROMPT, CARD_PROMPT), 3, MASKED,
				CARD_PROMPT);
	}

	@Test
	void aCharSequenceParameterTakesTheDeidentifiedText() {
		assertBodyReceived((briefing) -> briefing.asCharSequence(CONTEXT, CARD_PROMPT), CONTEXT, MASKED);
	}

	@Test
	void aPropertyPathCannotBeReplacedAndBlocks() {
		assertBlocked((briefing) -> briefing.byPath(CONTEXT, new CardRequest(CARD_PROMPT)));
	}

	@Test
	void anExpressionOverTheArgumentCannotBeReplacedAndBlocks() {
		assertBlocked((briefing) -> briefing.byExpression(CONTEXT, " " + CARD_PROMPT + " "));
	}

	@Test
	void aParameterThatCannotHoldAStringCannotBeReplacedAndBlocks() {
		assertBlocked((briefing) -> briefing.asBuilder(CONTEXT, new StringBuilder(CARD_PROMPT)));
	}

	private void assertBodyReceived(Consumer<Briefing> call, Object... expected) {
		this.runner.run((context) -> {
			call.accept(context.getBean(Briefing.class));
			assertThat(context.getBean(BodyRuns.class).received()).containsExactly(Arrays.asList(expected));
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
	}

	private void assertBlocked(Consumer<Briefing> call) {
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> call.accept(context.getBean(Briefing.class)))
				.satisfies((ex) -> assertThat(ex.matchedFilters()).containsExactly("sdp"));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	record CardRequest(String text) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Briefings {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		Briefing briefing(BodyRuns runs) {
			return new Briefing(runs);
		}

	}

	static class Briefing {

		private final BodyRuns runs;

		Briefing(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded(prompt = "#question", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byName(String context, String question) {
			this.runs.ran(List.of(context, question));
		}

		@ModelArmorGuarded(prompt = "  #question ", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byPaddedName(String context, String question) {
			this.runs.ran(List.of(context, question));
		}

		@ModelArmorGuarded(prompt = "#p1", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byP(String context, String question) {
			this.runs.ran(List.of(context, question));
		}

		@ModelArmorGuarded(prompt = "#a1", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byA(String context, String question) {
			this.runs.ran(List.of(context, question));
		}

		@ModelArmorGuarded(prompt = "#p0", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byP0(String question, String context) {
			this.runs.ran(List.of(question, context));
		}

		@ModelArmorGuarded(screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byDefault(String question, String context) {
			this.runs.ran(List.of(question, context));
		}

		@ModelArmorGuarded(screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byDefaultAfterALimit(int limit, String question, String context) {
			this.runs.ran(List.of(limit, question, context));
		}

		@ModelArmorGuarded(prompt = "#question", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void asCharSequence(String context, CharSequence question) {
			this.runs.ran(List.of(context, question.toString()));
		}

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byPath(String context, CardRequest request) {
			this.runs.ran(List.of(context, request));
		}

		@ModelArmorGuarded(prompt = "#question.strip()", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void byExpression(String context, String question) {
			this.runs.ran(List.of(context, question));
		}

		@ModelArmorGuarded(prompt = "#question", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void asBuilder(String context, StringBuilder question) {
			this.runs.ran(List.of(context, question.toString()));
		}

	}

}
