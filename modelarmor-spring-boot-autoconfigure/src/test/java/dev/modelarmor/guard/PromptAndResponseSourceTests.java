package dev.modelarmor.guard;

import java.util.List;
import java.util.Optional;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the guard finds the prompt and the answer: the {@code prompt} and {@code response} SpEL, and the
 * defaults when they are not set.
 */
class PromptAndResponseSourceTests {

	static final String USER = "alice";

	static final String QUESTION = "Which train goes to Lyon?";

	static final String ANSWER = "The 10:04 TGV from Gare de Lyon.";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(Trains.class);

	@BeforeEach
	void answerClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void promptExpressionReadsAPropertyOfARecordArgument() {
		this.runner.run((context) -> context.getBean(TrainService.class).askRequest(new TrainRequest(USER, QUESTION)));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void promptExpressionReadsAnArgumentByIndex() {
		this.runner.run((context) -> context.getBean(TrainService.class).askByIndex(USER, QUESTION));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void promptExpressionReadsAnArgumentByName() {
		this.runner.run((context) -> context.getBean(TrainService.class).askByName(USER, QUESTION));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void responseExpressionReadsAPropertyOfARecordResult() {
		this.runner.run((context) -> assertThat(context.getBean(TrainService.class).askForReply(QUESTION))
			.isEqualTo(new TrainReply(ANSWER, 3)));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void defaultPromptIsTheFirstCharSequenceArgumentWhereverItIs() {
		this.runner.run((context) -> context.getBean(TrainService.class).askWithLimit(5, QUESTION));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void defaultResponseIsTheStringReturned() {
		this.runner.run((context) -> assertThat(context.getBean(TrainService.class).ask(QUESTION)).isEqualTo(ANSWER));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void defaultResponseIsTheTextInAReturnedOptional() {
		this.runner.run((context) -> assertThat(context.getBean(TrainService.class).maybeAsk(QUESTION))
			.contains(ANSWER));
		assertScreened(QUESTION, ANSWER);
	}

	@Test
	void emptyOptionalHasNoAnswerToScreen() {
		this.runner.run((context) -> assertThat(context.getBean(TrainService.class).maybeAsk("unanswerable"))
			.isEmpty());
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	private static void assertScreened(String prompt, String answer) {
		List<LoggedRequest> prompts = promptRequests(modelArmor);
		assertThat(prompts).singleElement()
			.extracting(LoggedRequest::getBodyAsString)
			.asString()
			.isEqualToIgnoringWhitespace("{\"userPromptData\":{\"text\":\"" + prompt + "\"}}");
		List<LoggedRequest> responses = responseRequests(modelArmor);
		assertThat(responses).singleElement()
			.extracting(LoggedRequest::getBodyAsString)
			.asString()
			.isEqualToIgnoringWhitespace(
					"{\"modelResponseData\":{\"text\":\"" + answer + "\"},\"userPrompt\":\"" + prompt + "\"}");
	}

	record TrainRequest(String user, String text) {
	}

	record TrainReply(String reply, int stops) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Trains {

		@Bean
		TrainService trainService() {
			return new TrainService();
		}

	}

	static class TrainService {

		@ModelArmorGuarded(prompt = "#request.text")
		public String askRequest(TrainRequest request) {
			return ANSWER;
		}

		@ModelArmorGuarded(prompt = "#p1")
		public String askByIndex(String user, String question) {
			return ANSWER;
		}

		@ModelArmorGuarded(prompt = "#question")
		public String askByName(String user, String question) {
			return ANSWER;
		}

		@ModelArmorGuarded(response = "#result.reply")
		public TrainReply askForReply(String question) {
			return new TrainReply(ANSWER, 3);
		}

		@ModelArmorGuarded
		public String askWithLimit(int limit, String question) {
			return ANSWER;
		}

		@ModelArmorGuarded
		public String ask(String question) {
			return ANSWER;
		}

		@ModelArmorGuarded
		public Optional<String> maybeAsk(String question) {
			return question.equals(QUESTION) ? Optional.of(ANSWER) : Optional.empty();
		}

	}

}
