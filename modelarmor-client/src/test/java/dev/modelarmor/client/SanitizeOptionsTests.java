package dev.modelarmor.client;

import java.util.List;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;


import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SanitizeOptions}: multi-language detection metadata on sanitize requests, as the official
 * schema reads it, and nothing at all without options.
 */
class SanitizeOptionsTests {

	static final String PROMPT_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt";

	static final String RESPONSE_PATH = "/v1/projects/p/locations/l/templates/t:sanitizeModelResponse";

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}
			""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	ModelArmorTemplate template;

	@BeforeEach
	void createClient() {
		this.template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(3)))
			.projectId("p")
			.location("l")
			.templateId("t")
			.build();
		for (String path : List.of(PROMPT_PATH, RESPONSE_PATH)) {
			modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(
					aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(NO_MATCH)));
		}
	}

	@Test
	void aPromptWithMultiLanguageDetectionCarriesTheMetadata() throws Exception {
		this.template.sanitizeUserPrompt(DataItem.text("Hallo Welt"),
				SanitizeOptions.multiLanguageDetection().withSourceLanguage("de"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(PROMPT_PATH)).withRequestBody(equalToJson("""
				{"userPromptData": {"text": "Hallo Welt"},
				 "multiLanguageDetectionMetadata": {"sourceLanguage": "de", "enableMultiLanguageDetection": true}}
				""")));
		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder();
		JsonFormat.parser().merge(onlyBody(), official);
		assertThat(official.hasMultiLanguageDetectionMetadata()).isTrue();
		assertThat(official.getMultiLanguageDetectionMetadata().getSourceLanguage()).isEqualTo("de");
		assertThat(official.getMultiLanguageDetectionMetadata().getEnableMultiLanguageDetection()).isTrue();
		assertThat(official.getUserPromptData().getText()).isEqualTo("Hallo Welt");
	}

	@Test
	void aResponseWithMultiLanguageDetectionCarriesTheMetadata() throws Exception {
		this.template.sanitizeModelResponse(DataItem.text("Paris."), "Quelle est la capitale ?",
				SanitizeOptions.multiLanguageDetection().withSourceLanguage("fr"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(RESPONSE_PATH)).withRequestBody(equalToJson("""
				{"modelResponseData": {"text": "Paris."}, "userPrompt": "Quelle est la capitale ?",
				 "multiLanguageDetectionMetadata": {"sourceLanguage": "fr", "enableMultiLanguageDetection": true}}
				""")));
		var official = com.google.cloud.modelarmor.v1.SanitizeModelResponseRequest.newBuilder();
		JsonFormat.parser().merge(onlyBody(), official);
		assertThat(official.getMultiLanguageDetectionMetadata().getSourceLanguage()).isEqualTo("fr");
		assertThat(official.getMultiLanguageDetectionMetadata().getEnableMultiLanguageDetection()).isTrue();
		assertThat(official.getUserPrompt()).isEqualTo("Quelle est la capitale ?");
	}

	@Test
	void detectionWithoutASourceLanguageLeavesTheLanguageOut() throws Exception {
		this.template.sanitizeUserPrompt(DataItem.text("hi"), SanitizeOptions.multiLanguageDetection());

		JsonNode metadata = ModelArmorJson.mapper().readTree(onlyBody()).get("multiLanguageDetectionMetadata");
		assertThat(metadata.propertyNames()).containsExactly("enableMultiLanguageDetection");
		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder();
		JsonFormat.parser().merge(onlyBody(), official);
		assertThat(official.getMultiLanguageDetectionMetadata().getEnableMultiLanguageDetection()).isTrue();
	}

	@Test
	void noOptionsSendNoMetadata() throws Exception {
		this.template.sanitizeUserPrompt(DataItem.text("hi"), SanitizeOptions.NONE);
		this.template.sanitizeModelResponse(DataItem.text("hi"), null, SanitizeOptions.NONE);
		this.template.sanitizeUserPrompt("hi");
		this.template.sanitizeModelResponse("hi", "q");

		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(4);
		for (ServeEvent event : events) {
			String body = event.getRequest().getBodyAsString();
			assertThat(body).doesNotContain("multiLanguageDetectionMetadata").doesNotContain("null");
			var official = event.getRequest().getUrl().endsWith("sanitizeUserPrompt")
					? com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder()
					: com.google.cloud.modelarmor.v1.SanitizeModelResponseRequest.newBuilder();
			JsonFormat.parser().merge(body, official);
		}
	}

	@Test
	void optionsAreValues() {
		assertThat(SanitizeOptions.NONE).isEqualTo(new SanitizeOptions(null, null));
		assertThat(SanitizeOptions.multiLanguageDetection().withSourceLanguage("de"))
			.isEqualTo(new SanitizeOptions("de", true));
		assertThat(SanitizeOptions.NONE.withSourceLanguage("ja")).isEqualTo(new SanitizeOptions("ja", null));
	}

	private static String onlyBody() {
		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(1);
		return events.get(0).getRequest().getBodyAsString();
	}

}
