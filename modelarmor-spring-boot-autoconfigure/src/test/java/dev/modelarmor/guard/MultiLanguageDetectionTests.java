package dev.modelarmor.guard;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.TestImages;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code modelarmor.screening.multi-language-detection.*} reaches every sanitize call over the wire: the
 * prompt, the response and media alike; unset, nothing is sent; a source language that is no BCP 47 tag
 * stops the start naming the property.
 */
class MultiLanguageDetectionTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Translating.class);

	@BeforeEach
	void answerClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void bothPropertiesAreSentWithThePromptTheResponseAndAnImage() {
		this.runner
			.withPropertyValues("modelarmor.screening.multi-language-detection.enabled=true",
					"modelarmor.screening.multi-language-detection.source-language=pt-BR")
			.run((context) -> {
				Translator translator = context.getBean(Translator.class);
				assertThat(translator.translate("Olá, tudo bem?")).isEqualTo("Hello, how are you?");
				translator.describe(DataItem.image(TestImages.png()));
			});
		for (String side : new String[] { "sanitizeUserPrompt", "sanitizeModelResponse" }) {
			modelArmor.verify(postRequestedFor(urlPathMatching(".*:" + side))
				.withRequestBody(matchingJsonPath("$.multiLanguageDetectionMetadata.sourceLanguage", equalTo("pt-BR")))
				.withRequestBody(matchingJsonPath("$.multiLanguageDetectionMetadata.enableMultiLanguageDetection",
						equalTo("true"))));
		}
		modelArmor.verify(1, postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteDataType", equalTo("IMAGE")))
			.withRequestBody(matchingJsonPath("$.multiLanguageDetectionMetadata.sourceLanguage", equalTo("pt-BR"))));
	}

	@Test
	void theNonBlockingPathSendsThemToo() {
		this.runner
			.withPropertyValues("modelarmor.screening.multi-language-detection.enabled=true",
					"modelarmor.screening.multi-language-detection.source-language=pt-BR")
			.run((context) -> {
				ModelArmorScreening screening = context.getBean(ModelArmorScreening.class);
				ScreeningDecision decision = ModelArmorScreening
					.await(screening.screenAsync(ScreeningRequest.prompt("test", "Olá, tudo bem?")));
				assertThat(decision).isInstanceOf(ScreeningDecision.Pass.class);
			});
		modelArmor.verify(1, postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.multiLanguageDetectionMetadata.sourceLanguage", equalTo("pt-BR"))));
	}

	@Test
	void detectionAloneIsSentWithoutASourceLanguage() {
		this.runner.withPropertyValues("modelarmor.screening.multi-language-detection.enabled=false")
			.run((context) -> context.getBean(Translator.class).translate("Hallo"));
		assertThat(ModelArmorStubs.promptRequests(modelArmor)).singleElement()
			.satisfies((request) -> assertThat(request.getBodyAsString())
				.contains("\"multiLanguageDetectionMetadata\":{\"enableMultiLanguageDetection\":false}"));
	}

	@Test
	void unsetNothingIsSent() {
		this.runner.run((context) -> context.getBean(Translator.class).translate("Hallo"));
		assertThat(modelArmor.getAllServeEvents()).isNotEmpty()
			.allSatisfy((event) -> assertThat(event.getRequest().getBodyAsString())
				.doesNotContain("multiLanguageDetectionMetadata"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "de DE", "de_DE", "12", "", "x" })
	void aSourceLanguageThatIsNoLanguageTagStopsTheStartNamingIt(String language) {
		this.runner.withPropertyValues("modelarmor.screening.multi-language-detection.source-language=" + language)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(ModelArmorConfigurationException.class)
					.hasMessageContaining("modelarmor.screening.multi-language-detection.source-language");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Translating {

		@Bean
		Translator translator() {
			return new Translator();
		}

	}

	static class Translator {

		@ModelArmorGuarded
		public String translate(String text) {
			return "Hello, how are you?";
		}

		@ModelArmorGuarded(screenResponse = false)
		public String describe(DataItem image) {
			return "an image";
		}

	}

}
