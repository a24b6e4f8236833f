package dev.modelarmor.guard;

import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.status;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fail-open covers Model Armor being unavailable, never input the caller controls: text larger than Model
 * Armor screens, and text that Model Armor answers with HTTP 400 or 413, block the call in every mode, with
 * {@link ModelArmorInputRejectedException} and a WARN line. Before, under fail-open, a prompt padded past
 * 4 MiB skipped screening altogether.
 */
@ExtendWith(OutputCaptureExtension.class)
class InputRejectedTests {

	static final String QUESTION = "Summarise my medical record";

	/**
	 * Far past the 4 MiB a request takes, and past any window cap of windowed screening, so that the client
	 * refuses it before anything is sent.
	 */
	static final String PADDED_QUESTION = "x".repeat(2 * DataItem.MAX_BYTES) + QUESTION;

	static final String INVALID_ARGUMENT = """
			{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "Request contains an invalid argument."}}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Paraphrasing.class);

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void aPromptLargerThanModelArmorScreensNeverReachesTheBody(boolean failOpen, CapturedOutput output) {
		answerEverythingClean(modelArmor);
		this.runner.withPropertyValues("modelarmor.screening.fail-open=" + failOpen).run((context) -> {
			assertThatExceptionOfType(ModelArmorInputRejectedException.class)
				.isThrownBy(() -> context.getBean(Paraphraser.class).paraphrase(PADDED_QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.tooLarge()).isTrue();
					// The guard screens in windows: more than max-windows of them is refused before anything is sent.
					assertThat(ex.reason()).startsWith(PADDED_QUESTION.length() + " bytes, over the limit of ");
					assertThat(ex.getCause()).isInstanceOf(ModelArmorInputTooLargeException.class)
						.hasMessageContaining("modelarmor.screening.window.max-windows");
					assertThat(ex.getMessage()).doesNotContain(QUESTION).doesNotContain("xxxx");
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
		assertThat(rejectionLines(output)).singleElement()
			.asString()
			.contains("method=\"InputRejectedTests.Paraphraser.paraphrase(String)\" phase=PROMPT outcome=input_rejected "
					+ "status=none attempts=0 reason=\"" + PADDED_QUESTION.length() + " bytes, over the limit of ");
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 413 })
	void aPromptThatModelArmorRefusesIsBlockedEvenWithFailOpen(int statusCode, CapturedOutput output) {
		answerEverythingClean(modelArmor);
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", equalTo(QUESTION)))
			.willReturn(status(statusCode).withHeader("Content-Type", "application/json")
				.withBody((statusCode == 400) ? INVALID_ARGUMENT : "")));
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			assertThatExceptionOfType(ModelArmorInputRejectedException.class)
				.isThrownBy(() -> context.getBean(Paraphraser.class).paraphrase(QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.reason()).isEqualTo("HTTP " + statusCode);
					assertThat(ex.tooLarge()).isEqualTo(statusCode == 413);
					assertThat(ex.getCause()).isInstanceOfSatisfying(ModelArmorApiException.class,
							(cause) -> assertThat(cause.statusCode()).isEqualTo(statusCode));
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		assertThat(promptRequests(modelArmor)).as("a 400 or 413 is not retried").hasSize(1);
		assertThat(responseRequests(modelArmor)).isEmpty();
		assertThat(rejectionLines(output)).singleElement()
			.asString()
			.contains("phase=PROMPT outcome=input_rejected status=" + statusCode + " attempts=1 reason=\"HTTP "
					+ statusCode + "\"");
		assertThat(output.getAll()).doesNotContain("fail-open)");
	}

	@Test
	void anAnswerLargerThanModelArmorScreensIsWithheldEvenWithFailOpen() {
		answerEverythingClean(modelArmor);
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			assertThatExceptionOfType(ModelArmorInputRejectedException.class)
				.isThrownBy(() -> context.getBean(Paraphraser.class).echo(PADDED_QUESTION))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.RESPONSE);
					assertThat(ex.tooLarge()).isTrue();
				});
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void aRejectionIsNotAnOutageForCodeThatCatchesOutages() {
		answerEverythingClean(modelArmor);
		this.runner.run((context) -> {
			Paraphraser paraphraser = context.getBean(Paraphraser.class);
			assertThatExceptionOfType(ModelArmorInputRejectedException.class)
				.isThrownBy(() -> catchingOutages(() -> paraphraser.paraphrase(PADDED_QUESTION)));
		});
	}

	private static String catchingOutages(java.util.function.Supplier<String> call) {
		try {
			return call.get();
		}
		catch (ModelArmorException ex) {
			return "Model Armor is down, try again later";
		}
	}

	private static List<String> rejectionLines(CapturedOutput output) {
		return output.getAll().lines().filter((line) -> line.contains("refused the input")).toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class Paraphrasing {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		Paraphraser paraphraser(BodyRuns runs) {
			return new Paraphraser(runs);
		}

	}

	static class Paraphraser {

		private final BodyRuns runs;

		Paraphraser(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded
		public String paraphrase(String question) {
			this.runs.ran(question.length());
			return "In other words: a summary";
		}

		@ModelArmorGuarded(screenPrompt = false)
		public String echo(String text) {
			this.runs.ran(text.length());
			return text;
		}

	}

}
