package dev.modelarmor.ai;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.client.HeadReadingFilters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.ai.SpringAiFixtures.model;
import static dev.modelarmor.client.HeadReadingFilters.INJECTION;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The advisor given text longer than the filters read, through Spring AI's auto-configured
 * {@code ChatClient}: an injection padded behind 200,000 harmless characters never reaches the model,
 * and one at the end of a long answer (called or streamed) never reaches the caller. WireMock plays
 * filters that read only the first 10,000 tokens of an item ({@link HeadReadingFilters}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LongTextAdvisorTests {

	private static final String PADDING = "The quick brown fox jumps over the lazy dog. ".repeat(4_500);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().extensions(new HeadReadingFilters()))
		.build();

	private final ApplicationContextRunner runner = SpringAiFixtures.runner(modelArmor);

	@BeforeEach
	void filtersThatReadOnlyTheHead() {
		modelArmor.resetAll();
		modelArmor.stubFor(post(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)"))
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));
	}

	@Test
	void aPaddedInjectionInThePromptNeverReachesTheModel() {
		this.runner.run((context) -> {
			model(context).answering("an answer");
			ChatClientResponse response = chatClient(context).prompt().user(PADDING + INJECTION).call()
				.chatClientResponse();
			assertThat(model(context).receivedUserTexts()).isEmpty();
			assertThat(response.context()).containsEntry(ModelArmorAdvisor.BLOCKED, Boolean.TRUE)
				.containsEntry(ModelArmorAdvisor.PHASE, "prompt")
				.containsEntry(ModelArmorAdvisor.FILTERS, Set.of("pi_and_jailbreak"));
		});
		assertThat(promptRequests(modelArmor)).hasSizeGreaterThan(1);
	}

	@Test
	void anInjectionAtTheEndOfALongAnswerIsRefused() {
		this.runner.run((context) -> {
			model(context).answering(PADDING + INJECTION);
			assertThat(chatClient(context).prompt().user("a short question").call().content())
				.isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		});
		assertThat(responseRequests(modelArmor)).hasSizeGreaterThan(1);
	}

	@Test
	void aLongBufferedAnswerIsScreenedWholeBeforeAnyOfItIsEmitted() {
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.stream-mode=buffered").run((context) -> {
			model(context).streaming(PADDING, PADDING, INJECTION);
			assertThat(chatClient(context).prompt().user("a short question").stream().content().collectList().block())
				.containsExactly(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		});
	}

	@Test
	void aLongWindowedAnswerEmitsOnlyWhatWasScreenedAndEndsWithTheRefusal() {
		this.runner.run((context) -> {
			model(context).streaming(PADDING, PADDING, INJECTION);
			assertThat(chatClient(context).prompt().user("a short question").stream().content().collectList().block())
				.containsExactly(PADDING, ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		});
	}

}
