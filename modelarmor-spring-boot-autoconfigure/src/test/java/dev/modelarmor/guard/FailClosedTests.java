package dev.modelarmor.guard;

import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.status;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
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
 * Screening that cannot complete blocks the call by default (fail-closed), with one WARN line naming the
 * method, the phase, the last status and the attempts, never the content.
 */
@ExtendWith(OutputCaptureExtension.class)
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
	void aRefusalIsLoggedOnceWithStatusAndAttemptsNeverTheContent(CapturedOutput output) {
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(status(403).withHeader("Content-Type", "application/json")
			.withBody("""
					{"error": {"code": 403, "status": "PERMISSION_DENIED",
					 "message": "Permission 'modelarmor.templates.useToSanitizeUserPrompt' denied"}}""")));
		this.runner.run((context) -> assertThatExceptionOfType(ModelArmorNotScreenedException.class)
			.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
			.satisfies((ex) -> assertThat(ex.attempts()).isEqualTo(1)));
		assertThat(failClosedWarnings(output)).singleElement()
			.asString()
			.contains(" WARN ")
			.endsWith("Model Armor could not screen a call, blocking it (fail-closed): "
					+ "method=\"RecordService.summarise(String)\" phase=PROMPT outcome=not_screened status=403 attempts=1 "
					+ "reason=\"HTTP 403\"");
		assertThat(output.getAll()).doesNotContain(QUESTION);
	}

	@Test
	void anOutageIsLoggedWithTheLastStatusAndEveryAttempt(CapturedOutput output) {
		failEverything(modelArmor);
		this.runner.run((context) -> assertThatExceptionOfType(ModelArmorNotScreenedException.class)
			.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION)));
		assertThat(failClosedWarnings(output)).singleElement()
			.asString()
			.contains("phase=PROMPT outcome=not_screened status=503 attempts=" + promptRequests(modelArmor).size()
					+ " reason=\"HTTP 503, the next retry would have ended past the call's deadline\"");
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
	void answerThatCannotBeScreenedIsWithheldAfterTheBodyRan(CapturedOutput output) {
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
		assertThat(failClosedWarnings(output)).singleElement()
			.asString()
			.contains("phase=RESPONSE outcome=not_screened status=200 attempts=0 "
					+ "reason=\"filterMatchState NO_MATCH_FOUND, invocationResult PARTIAL\"");
	}

	private static List<String> failClosedWarnings(CapturedOutput output) {
		return output.getAll().lines().filter((line) -> line.contains("(fail-closed)")).toList();
	}

}
