package dev.modelarmor.ai;

import java.time.Instant;
import java.util.Set;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.HostileHints;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClientResponse;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static dev.modelarmor.ai.AdvisorCallTests.assertRefusal;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.ai.SpringAiFixtures.model;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Seeded hostile retry hints ({@link HostileHints}) on the prompt's screening, through Spring AI's
 * auto-configured {@code ChatClient} with the starter's advisor: the model answers after a normal wait,
 * or the prompt is refused (fail-closed) and the model never sees it; with {@code on-block=throw} the
 * refusal is a {@link ModelArmorNotScreenedException} whose cause names
 * {@code retry_after_exceeds_deadline}. Never another exception. Retries in virtual time.
 */
class HostileRetryHintAdvisorTests {

	static final String QUESTION = "What are your opening hours?";

	static final String ANSWER = "Nine to five.";

	/** Every hint is tried in one context: a retry budget would stop retrying partway through. */
	static final String NO_BUDGET = "modelarmor.retry.budget.enabled=false";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	@Timeout(120)
	void everyHintEndsInTheModelsAnswerOrTheRefusal() {
		SplittableRandom random = new SplittableRandom(1_234_567);
		SpringAiFixtures.runner(modelArmor).withPropertyValues(NO_BUDGET).run((context) -> {
			model(context).answering(ANSWER);
			int answered = 0;
			int refused = 0;
			for (int i = 0; i < 40; i++) {
				String what = failPromptOnceThenAnswer(random);
				int modelCallsBefore = model(context).receivedUserTexts().size();

				ChatClientResponse response = chatClient(context).prompt().user(QUESTION).call().chatClientResponse();

				if (response.chatResponse().getResult().getOutput().getText().equals(ANSWER)) {
					answered++;
					assertThat(model(context).receivedUserTexts()).as(what).hasSize(modelCallsBefore + 1);
				}
				else {
					refused++;
					assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "prompt", "not_screened", Set.of());
					assertThat(model(context).receivedUserTexts()).as(what).hasSize(modelCallsBefore);
				}
			}
			assertThat(answered).isGreaterThan(5);
			assertThat(refused).isGreaterThan(5);
		});
	}

	@Test
	@Timeout(120)
	void everyRefusalThrownNamesTheHintThatDidNotFit() {
		SplittableRandom random = new SplittableRandom(7_654_321);
		SpringAiFixtures.runner(modelArmor).withPropertyValues(NO_BUDGET, "modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			model(context).answering(ANSWER);
			int refused = 0;
			for (int i = 0; i < 40; i++) {
				String what = failPromptOnceThenAnswer(random);

				Throwable failure = catchThrowable(
						() -> assertThat(chatClient(context).prompt().user(QUESTION).call().content()).isEqualTo(ANSWER));

				if (failure != null) {
					refused++;
					assertThat(failure).as(what).isInstanceOfSatisfying(ModelArmorNotScreenedException.class, (ex) -> {
						assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
						assertThat(ex.getCause()).isInstanceOfSatisfying(ModelArmorApiException.class,
								(cause) -> assertThat(cause.outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE));
						assertThat(ex.getMessage()).doesNotContain(QUESTION);
					});
				}
			}
			assertThat(refused).isGreaterThan(5);
		});
	}

	/** The next seeded hint on the prompt's first screening; the answer after it is clean. */
	private static String failPromptOnceThenAnswer(SplittableRandom random) {
		String header = HostileHints.sendable(HostileHints.retryAfter(random, Instant.now())).strip();
		String delay = random.nextBoolean() ? HostileHints.retryInfoDelay(random) : null;
		modelArmor.resetMappings();
		modelArmor.resetScenarios();
		answerEverythingClean(modelArmor);
		ResponseDefinitionBuilder unavailable = aResponse().withStatus(503).withHeader("Retry-After", header);
		if (delay != null) {
			unavailable.withHeader("Content-Type", "application/json").withBody(HostileHints.unavailableWithRetryInfo(delay));
		}
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorStubs.promptPath())).atPriority(1)
			.inScenario("hint")
			.whenScenarioStateIs(STARTED)
			.willReturn(unavailable)
			.willSetStateTo("answered"));
		return "Retry-After [" + header + "] retryDelay [" + delay + "]";
	}

}
