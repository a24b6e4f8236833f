package dev.modelarmor.guard;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.answerResponse;
import static dev.modelarmor.guard.ModelArmorStubs.failEverything;
import static dev.modelarmor.guard.ModelArmorStubs.incomplete;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static dev.modelarmor.guard.RecordService.ANSWER;
import static dev.modelarmor.guard.RecordService.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Screening that cannot complete blocks the call by default (fail-closed).
 */
class FailClosedTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, RecordService.Beans.class);

	@Test
	void outageAfterTheRetriesBlocksThePromptBeforeTheBodyRuns() {
		failEverything(modelArmor);
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorNotScreenedException.class)
				.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.attempts()).isGreaterThan(1);
					assertThat(ex.getMessage()).contains("prompt", "HTTP 503").doesNotContain(QUESTION);
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		assertThat(promptRequests(modelArmor)).hasSizeGreaterThan(1);
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void partialInvocationBlocks() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, QUESTION, incomplete("PARTIAL", false));
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorNotScreenedException.class)
				.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.getMessage()).contains("PARTIAL").doesNotContain(QUESTION);
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void partialInvocationCountsAsScreenedWhenTheTemplateIgnoresPartialFailures() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, QUESTION, incomplete("PARTIAL", true));
		this.runner.run((context) -> {
			assertThat(context.getBean(RecordService.class).summarise(QUESTION)).isEqualTo(ANSWER);
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
		assertThat(responseRequests(modelArmor)).hasSize(1);
	}

	@Test
	void failedInvocationBlocks() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, QUESTION, incomplete("FAILURE", true));
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorNotScreenedException.class)
				.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
				.satisfies((ex) -> assertThat(ex.phase()).isEqualTo(Phase.PROMPT));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void answerThatCannotBeScreenedIsWithheldAfterTheBodyRan() {
		answerEverythingClean(modelArmor);
		answerResponse(modelArmor, ANSWER, incomplete("PARTIAL", false));
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorNotScreenedException.class)
				.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.RESPONSE);
					assertThat(ex.getMessage()).doesNotContain(ANSWER).doesNotContain(QUESTION);
				});
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
	}

}
