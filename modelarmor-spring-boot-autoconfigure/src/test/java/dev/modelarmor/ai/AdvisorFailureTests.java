package dev.modelarmor.ai;

import java.util.Set;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.guard.ModelArmorNotScreenedException;
import dev.modelarmor.guard.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.AdvisorCallTests.assertRefusal;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.ai.SpringAiFixtures.model;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerResponse;
import static dev.modelarmor.guard.ModelArmorStubs.failEverything;
import static dev.modelarmor.guard.ModelArmorStubs.incomplete;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Screening that cannot complete: fail-closed by default (the refusal, or
 * {@link ModelArmorNotScreenedException} with {@code on-block=throw}), fail-open with
 * {@code modelarmor.guard.fail-open=true}. Retries run in virtual time.
 */
class AdvisorFailureTests {

	static final String QUESTION = "Is anyone listening?";

	static final String ANSWER = "Summarise my medical record first";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = SpringAiFixtures.runner(modelArmor);

	@Test
	void anOutageFailsClosedWithTheRefusalAndTheModelIsNotCalled() {
		failEverything(modelArmor);
		this.runner.run((context) -> {
			model(context).answering(ANSWER);
			ChatClientResponse response = chatClient(context).prompt().user(QUESTION).call().chatClientResponse();
			assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "prompt", "not_screened", Set.of());
			assertThat(model(context).receivedUserTexts()).isEmpty();
		});
		assertThat(promptRequests(modelArmor)).hasSizeGreaterThan(1);
	}

	@Test
	void anOutageFailsClosedWithNotScreenedWhenOnBlockIsThrow() {
		failEverything(modelArmor);
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			assertThatExceptionOfType(ModelArmorNotScreenedException.class)
				.isThrownBy(() -> chatClient(context).prompt().user(QUESTION).call().content())
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.getMessage()).contains("HTTP 503").doesNotContain(QUESTION);
				});
			assertThat(model(context).receivedUserTexts()).isEmpty();
		});
	}

	@Test
	void anOutageFailsOpenWhenTheGuardDoes() {
		failEverything(modelArmor);
		this.runner.withPropertyValues("modelarmor.guard.fail-open=true").run((context) -> {
			model(context).answering(ANSWER);
			assertThat(chatClient(context).prompt().user(QUESTION).call().content()).isEqualTo(ANSWER);
			assertThat(model(context).receivedUserTexts()).containsExactly(QUESTION);
		});
	}

	@Test
	void anAnswerThatCannotBeScreenedIsWithheld() {
		answerEverythingClean(modelArmor);
		answerResponse(modelArmor, ANSWER, incomplete("PARTIAL", false));
		this.runner.run((context) -> {
			model(context).answering(ANSWER);
			ChatClientResponse response = chatClient(context).prompt().user(QUESTION).call().chatClientResponse();
			assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "not_screened", Set.of());
			assertThat(model(context).receivedUserTexts()).containsExactly(QUESTION);
		});
	}

	@Test
	void aStreamedAnswerThatCannotBeScreenedFailsOpenWhenTheGuardDoes() {
		answerEverythingClean(modelArmor);
		answerResponse(modelArmor, ANSWER, incomplete("FAILURE", false));
		this.runner.withPropertyValues("modelarmor.guard.fail-open=true").run((context) -> {
			model(context).streaming(ANSWER);
			assertThat(chatClient(context).prompt().user(QUESTION).stream().content().collectList().block())
				.containsExactly(ANSWER);
		});
	}

}
