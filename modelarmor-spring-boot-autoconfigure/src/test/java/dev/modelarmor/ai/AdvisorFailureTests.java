package dev.modelarmor.ai;

import java.util.Set;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.Phase;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.status;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
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
 * {@link ModelArmorNotScreenedException} with {@code on-block=throw}, and a WARN line), fail-open with
 * {@code modelarmor.screening.fail-open=true}; text that Model Armor refuses is refused in every mode
 * ({@link ModelArmorInputRejectedException}). Retries run in virtual time.
 */
@ExtendWith(OutputCaptureExtension.class)
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
	void aFailClosedRefusalIsLoggedOnceNamingTheAdvisorStatusAndAttempts(CapturedOutput output) {
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(status(403)));
		this.runner.run((context) -> {
			ChatClientResponse response = chatClient(context).prompt().user(QUESTION).call().chatClientResponse();
			assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "prompt", "not_screened", Set.of());
		});
		assertThat(output.getAll().lines().filter((line) -> line.contains("(fail-closed)")).toList()).singleElement()
			.asString()
			.contains(" WARN ")
			.endsWith("Model Armor could not screen a call, blocking it (fail-closed): "
					+ "method=\"ModelArmorAdvisor.adviseCall\" phase=PROMPT outcome=not_screened status=403 attempts=1 "
					+ "reason=\"HTTP 403\"");
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 413 })
	void aPromptThatModelArmorRefusesIsRefusedEvenWithFailOpen(int statusCode, CapturedOutput output) {
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(status(statusCode)));
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			model(context).answering(ANSWER);
			ChatClientResponse response = chatClient(context).prompt().user(QUESTION).call().chatClientResponse();
			assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "prompt", "input_rejected", Set.of());
			assertThat(model(context).receivedUserTexts()).isEmpty();
			assertThat(context.getBean(MeterRegistry.class)
				.get(MicrometerScreeningObserver.SCREENINGS)
				.tags("phase", "prompt", "result", "rejected", "filter", "none")
				.counter()
				.count()).isEqualTo(1);
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(output.getAll().lines().filter((line) -> line.contains("refused the input")).toList())
			.singleElement()
			.asString()
			.contains("method=\"ModelArmorAdvisor.adviseCall\" phase=PROMPT outcome=input_rejected status=" + statusCode);
	}

	@Test
	void aPromptLargerThanModelArmorScreensIsRejectedWithOnBlockThrowEvenWithFailOpen() {
		String padded = "x".repeat(2 * DataItem.MAX_BYTES) + QUESTION;
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true", "modelarmor.spring-ai.advisor.on-block=throw")
			.run((context) -> {
				assertThatExceptionOfType(ModelArmorInputRejectedException.class)
					.isThrownBy(() -> chatClient(context).prompt().user(padded).call().content())
					.satisfies((ex) -> {
						assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
						assertThat(ex.tooLarge()).isTrue();
					});
				assertThat(model(context).receivedUserTexts()).isEmpty();
			});
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void aStreamedAnswerThatModelArmorRefusesIsOneRefusalChunkEvenWithFailOpen() {
		answerEverythingClean(modelArmor);
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeModelResponse")).atPriority(1).willReturn(status(413)));
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			model(context).streaming("Summarise my ", "medical record first");
			assertThat(chatClient(context).prompt().user(QUESTION).stream().chatClientResponse().collectList().block())
				.singleElement()
				.satisfies((response) -> assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response",
						"input_rejected", Set.of()));
		});
	}

	@Test
	void anOutageFailsOpenWhenTheGuardDoes() {
		failEverything(modelArmor);
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
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
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			model(context).streaming(ANSWER);
			assertThat(chatClient(context).prompt().user(QUESTION).stream().content().collectList().block())
				.containsExactly(ANSWER);
		});
	}

}
