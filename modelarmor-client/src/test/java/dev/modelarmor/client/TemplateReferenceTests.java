package dev.modelarmor.client;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A template reference carries its location: the client bound to it calls that location (its regional
 * endpoint, or an explicit endpoint with the location in the path) and no other.
 */
class TemplateReferenceTests {

	static final String NO_MATCH = "{\"sanitizationResult\":{\"filterMatchState\":\"NO_MATCH_FOUND\","
			+ "\"invocationResult\":\"SUCCESS\"}}";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void aReferenceIsWrittenAndReadBack() {
		TemplateReference reference = TemplateReference.of("strict", "europe-west4");
		assertThat(reference.name()).isEqualTo("locations/europe-west4/templates/strict");
		assertThat(TemplateReference.parse(reference.name())).isEqualTo(reference);
		assertThat(TemplateReference.isReference("strict")).isFalse();
		assertThat(TemplateReference.isReference(reference.name())).isTrue();
	}

	@Test
	void aLocationThatCouldNameAnotherHostOrPathIsRefused() {
		for (String location : new String[] { "evil.example.com", "eu/../us", "EU", "", "us-central1:443", "..",
				"europe-west4%2F" }) {
			assertThatIllegalArgumentException().as(location).isThrownBy(() -> TemplateReference.of("t", location));
		}
		assertThatIllegalArgumentException().isThrownBy(() -> TemplateReference.of("..", "us"));
		assertThatIllegalArgumentException().isThrownBy(() -> TemplateReference.parse("projects/p/templates/t"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TemplateReference.parse("locations/evil.example.com/templates/t"));
	}

	@Test
	void aRegionalEndpointBecomesTheOtherLocationsAndAnExplicitOneStays() {
		ModelArmorEndpoint us = ModelArmorEndpoint.regional("us-central1");
		assertThat(us.isRegional()).isTrue();
		assertThat(us.forLocation("europe-west4").uri())
			.hasToString("https://modelarmor.europe-west4.rep.googleapis.com");
		ModelArmorEndpoint standIn = ModelArmorEndpoint.of("http://localhost:8089");
		assertThat(standIn.isRegional()).isFalse();
		assertThat(standIn.forLocation("europe-west4")).isSameAs(standIn);
		ModelArmorEndpoint proxy = ModelArmorEndpoint.of("https://modelarmor.us-central1.rep.googleapis.com.proxy.example");
		assertThat(proxy.isRegional()).isFalse();
		assertThat(ModelArmorEndpoint.of("https://modelarmor.us-central1.rep.googleapis.com:8443").isRegional()).isFalse();
	}

	@Test
	void aTemplateBoundToAReferenceCallsItsLocationAndNamesItInItsVerdictKey() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		try (ModelArmorTemplate client = ModelArmorTemplate.builder()
			.projectId("p")
			.location("us-central1")
			.templateId("t")
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.build()) {
			ModelArmorTemplate eu = client.withTemplate(TemplateReference.of("strict", "europe-west4"));
			assertThat(eu.templateName()).isEqualTo("projects/p/locations/europe-west4/templates/strict");
			assertThat(eu.getLocation()).isEqualTo("europe-west4");
			eu.sanitizeUserPrompt("hello");
			eu.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, Runnable::run).join();
			client.sanitizeUserPrompt("hello");
		}
		modelArmor.verify(2, postRequestedFor(
				urlPathEqualTo("/v1/projects/p/locations/europe-west4/templates/strict:sanitizeUserPrompt")));
		modelArmor.verify(1,
				postRequestedFor(urlPathEqualTo("/v1/projects/p/locations/us-central1/templates/t:sanitizeUserPrompt")));
	}

	@Test
	void aClientThatCannotCallAnotherLocationRefusesRatherThanCallItsOwn() {
		ModelArmorOperations own = new ModelArmorOperations() {

			@Override
			public SanitizationResult sanitizeUserPrompt(String prompt) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeModelResponse(String response) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeModelResponse(String response, String userPrompt) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeModelResponse(DataItem response, String userPrompt) {
				throw new AssertionError("never called");
			}

			@Override
			public SanitizationResult sanitizeModelResponse(DataItem response, String userPrompt,
					SanitizeOptions options) {
				throw new AssertionError("never called");
			}

			@Override
			public ModelArmorOperations withTemplate(String templateId) {
				return this;
			}

			@Override
			public String templateName() {
				return "projects/p/locations/us-central1/templates/t";
			}

			@Override
			public dev.modelarmor.client.admin.TemplateOperations templates() {
				throw new AssertionError("never called");
			}

			@Override
			public dev.modelarmor.client.admin.FloorSettingOperations floorSettings() {
				throw new AssertionError("never called");
			}

		};
		assertThat(own.withTemplate(TemplateReference.of("other", "us-central1"))).isSameAs(own);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> own.withTemplate(TemplateReference.of("strict", "europe-west4")))
			.withMessageContaining("europe-west4");
	}

}
