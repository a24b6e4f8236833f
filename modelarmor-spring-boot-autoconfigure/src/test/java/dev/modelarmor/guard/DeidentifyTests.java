package dev.modelarmor.guard;

import java.util.Optional;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.answerResponse;
import static dev.modelarmor.guard.ModelArmorStubs.deidentified;
import static dev.modelarmor.guard.ModelArmorStubs.deidentifiedAndDangerous;
import static dev.modelarmor.guard.ModelArmorStubs.responsePath;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link MatchAction#DEIDENTIFY}: the call goes on with SDP's de-identified text only when SDP alone
 * matched and the text can be put back where it came from; otherwise it blocks.
 */
class DeidentifyTests {

	static final String CARD_PROMPT = "my card is 4111 1111 1111 1111";

	static final String MASKED = "my card is [CREDIT_CARD_NUMBER]";

	static final String CARD_ANSWER = "your card is 4111 1111 1111 1111";

	static final String MASKED_ANSWER = "your card is [CREDIT_CARD_NUMBER]";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(Cards.class);

	@BeforeEach
	void answerTheRestClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void deidentifiedPromptIsWhatTheBodyReceivesAndWhatTheAnswerIsScreenedAgainst() {
		answerPrompt(modelArmor, CARD_PROMPT, deidentified(MASKED));
		this.runner.run((context) -> {
			assertThat(context.getBean(CardService.class).echo(CARD_PROMPT)).isEqualTo("echo: " + MASKED);
			assertThat(context.getBean(BodyRuns.class).received()).containsExactly(MASKED);
		});
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(responsePath()))
			.withRequestBody(matchingJsonPath("$.userPrompt", equalTo(MASKED))));
	}

	@Test
	void deidentifiedAnswerIsWhatTheCallerGets() {
		answerResponse(modelArmor, CARD_ANSWER, deidentified(MASKED_ANSWER));
		this.runner.run((context) -> {
			assertThat(context.getBean(CardService.class).lookUp("what is my card?")).isEqualTo(MASKED_ANSWER);
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
	}

	@Test
	void deidentifiedOptionalAnswerIsAnOptionalOfTheDeidentifiedText() {
		answerResponse(modelArmor, CARD_ANSWER, deidentified(MASKED_ANSWER));
		this.runner.run((context) -> assertThat(context.getBean(CardService.class).maybeLookUp("what is my card?"))
			.isEqualTo(Optional.of(MASKED_ANSWER)));
	}

	@Test
	void anotherMatchedFilterBesidesSdpBlocks() {
		answerPrompt(modelArmor, CARD_PROMPT, deidentifiedAndDangerous(MASKED));
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(CardService.class).echo(CARD_PROMPT))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.matchedFilters()).containsExactlyInAnyOrder("sdp", "rai");
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void promptFromANestedExpressionCannotBeReplacedAndBlocks() {
		answerPrompt(modelArmor, CARD_PROMPT, deidentified(MASKED));
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(CardService.class).echoRequest(new CardRequest(CARD_PROMPT)))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.matchedFilters()).containsExactly("sdp");
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	record CardRequest(String text) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Cards {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		CardService cardService(BodyRuns runs) {
			return new CardService(runs);
		}

	}

	static class CardService {

		private final BodyRuns runs;

		CardService(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded(onMatch = MatchAction.DEIDENTIFY)
		public String echo(String prompt) {
			this.runs.ran(prompt);
			return "echo: " + prompt;
		}

		@ModelArmorGuarded(onMatch = MatchAction.DEIDENTIFY)
		public String lookUp(String question) {
			this.runs.ran(question);
			return CARD_ANSWER;
		}

		@ModelArmorGuarded(onMatch = MatchAction.DEIDENTIFY)
		public Optional<String> maybeLookUp(String question) {
			this.runs.ran(question);
			return Optional.of(CARD_ANSWER);
		}

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false, onMatch = MatchAction.DEIDENTIFY)
		public void echoRequest(CardRequest request) {
			this.runs.ran(request);
		}

	}

}
