package dev.modelarmor.guard;

import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.HeadReadingFilters;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.client.HeadReadingFilters.INJECTION;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A guarded method given text longer than the filters read: the injection padded behind 200,000
 * harmless characters is found, in the prompt and in the answer, because the guard screens long text in
 * windows; text beyond the window cap is rejected before anything is sent, even with fail-open. WireMock
 * plays filters that read only the first 10,000 tokens of an item ({@link HeadReadingFilters}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LongTextGuardTests {

	private static final String PADDING = "The quick brown fox jumps over the lazy dog. ".repeat(4_500);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().extensions(new HeadReadingFilters()))
		.build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Beans.class);

	@Test
	void anInjectionBehindTwoHundredThousandCharactersBlocksThePromptBeforeTheBodyRuns() {
		readingOnlyTheHead();
		String prompt = PADDING + INJECTION;
		assertThat(prompt).hasSizeGreaterThan(200_000);
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(LongTextService.class).answer(prompt))
				.satisfies((ex) -> {
					assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
					assertThat(ex.matchedFilters()).containsExactly("pi_and_jailbreak");
				});
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		assertThat(promptRequests(modelArmor)).hasSizeGreaterThan(1);
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void anInjectionAtTheEndOfALongAnswerBlocksTheAnswer() {
		readingOnlyTheHead();
		this.runner.run((context) -> assertThatExceptionOfType(ModelArmorViolationException.class)
			.isThrownBy(() -> context.getBean(LongTextService.class).answer("short question"))
			.satisfies((ex) -> assertThat(ex.phase()).isEqualTo(Phase.RESPONSE)));
		assertThat(responseRequests(modelArmor)).hasSizeGreaterThan(1);
	}

	@Test
	void textBeyondTheWindowCapIsRejectedBeforeAnythingIsSentEvenWithFailOpen() {
		readingOnlyTheHead();
		String prompt = PADDING.repeat(2) + INJECTION;
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true", "modelarmor.screening.window.max-windows=8")
			.run((context) -> {
				assertThatExceptionOfType(ModelArmorInputRejectedException.class)
					.isThrownBy(() -> context.getBean(LongTextService.class).answer(prompt))
					.satisfies((ex) -> {
						assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
						assertThat(ex.tooLarge()).isTrue();
						assertThat(ex.getMessage()).doesNotContain("quick brown fox");
					});
				assertThat(context.getBean(BodyRuns.class).count()).isZero();
			});
		assertThat(promptRequests(modelArmor)).isEmpty();
	}

	private static void readingOnlyTheHead() {
		modelArmor.resetAll();
		modelArmor.stubFor(post(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)"))
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));
	}

	/**
	 * Answers a short question with a long answer whose end is an injection; a long question is never
	 * answered, its screening blocks first.
	 */
	static class LongTextService {

		private final BodyRuns runs;

		LongTextService(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded
		public String answer(String question) {
			this.runs.ran(question);
			return PADDING + INJECTION;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Beans {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		LongTextService longTextService(BodyRuns bodyRuns) {
			return new LongTextService(bodyRuns);
		}

	}

}
