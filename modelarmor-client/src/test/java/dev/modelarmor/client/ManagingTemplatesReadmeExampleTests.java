package dev.modelarmor.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.McpServerFloorSetting;
import dev.modelarmor.client.admin.MaliciousUriFilterSettings;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings;
import dev.modelarmor.client.admin.SdpFilterSettings;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateOperations;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example of docs/managing-templates.md, line for line, against WireMock: create, use, update,
 * list, delete. It keeps the documented example compiling and working.
 */
class ManagingTemplatesReadmeExampleTests {

	static final String TEMPLATES = "/v1/projects/my-project/locations/us-central1/templates";

	static final String SUPPORT_BOT = """
			{"name": "projects/my-project/locations/us-central1/templates/support-bot",
			 "createTime": "2026-11-30T08:00:00Z", "filterConfig": {}}""";

	/** The template as a newer Model Armor sends it: a RAI type, a member and an enforcement type unknown here. */
	static final String NEWER_SUPPORT_BOT = """
			{"name": "projects/my-project/locations/us-central1/templates/support-bot",
			 "createTime": "2026-11-30T08:00:00Z",
			 "filterConfig": {
			   "raiSettings": {"raiFilters": [{"filterType": "VIOLENCE", "confidenceLevel": "HIGH"}]},
			   "piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED", "confidenceLevel": "HIGH",
			     "detector": "2026-06"}},
			 "templateMetadata": {"enforcementType": "INSPECT_AND_REDACT"}}""";

	@RegisterExtension
	static WireMockExtension server = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void createUseUpdateListDelete() {
		server.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(okJson(SUPPORT_BOT)));
		server.stubFor(post(urlPathEqualTo(TEMPLATES + "/support-bot:sanitizeUserPrompt")).willReturn(okJson("""
				{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""")));
		server.stubFor(patch(urlPathEqualTo(TEMPLATES + "/support-bot")).willReturn(okJson(SUPPORT_BOT)));
		server.stubFor(get(urlPathEqualTo(TEMPLATES)).willReturn(okJson("{\"templates\": [" + SUPPORT_BOT + "]}")));
		server.stubFor(delete(urlPathEqualTo(TEMPLATES + "/support-bot")).willReturn(okJson("{}")));
		ModelArmorOperations modelArmor = modelArmor();
		String prompt = "What are your opening hours?";

		// As in docs/managing-templates.md:
		TemplateOperations templates = modelArmor.templates();

		Template created = templates.create("support-bot", Template.of(new FilterConfig(
				new RaiFilterSettings(List.of(new RaiFilterSettings.RaiFilter(RaiFilterType.DANGEROUS, DetectionConfidenceLevel.MEDIUM_AND_ABOVE))),
				SdpFilterSettings.basic(FilterEnforcement.ENABLED),
				new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.HIGH),
				new MaliciousUriFilterSettings(FilterEnforcement.ENABLED))));

		SanitizationResult result = modelArmor.withTemplate("support-bot").sanitizeUserPrompt(prompt);

		templates.update("support-bot", new Template(null, null, null, Map.of("env", "prod"), null, null)); // updateMask=labels
		List<Template> prod = templates.list("labels.env=\"prod\"", "name");                              // every page
		templates.delete("support-bot");

		assertThat(created.id()).isEqualTo("support-bot");
		assertThat(result.matchFound()).isFalse();
		assertThat(prod).extracting(Template::id).containsExactly("support-bot");
		server.verify(postRequestedFor(urlPathEqualTo(TEMPLATES)).withQueryParam("templateId", equalTo("support-bot"))
			.withRequestBody(matchingJsonPath("$.filterConfig.raiSettings.raiFilters[0].filterType",
					equalTo("DANGEROUS"))));
		server.verify(patchRequestedFor(urlPathEqualTo(TEMPLATES + "/support-bot"))
			.withQueryParam("updateMask", equalTo("labels")));
		server.verify(deleteRequestedFor(urlPathEqualTo(TEMPLATES + "/support-bot")));
	}

	@Test
	void readChangeOneFilterUpdate() {
		server.stubFor(get(urlPathEqualTo(TEMPLATES + "/support-bot")).willReturn(okJson(NEWER_SUPPORT_BOT)));
		server.stubFor(patch(urlPathEqualTo(TEMPLATES + "/support-bot")).willReturn(okJson(NEWER_SUPPORT_BOT)));
		ModelArmorOperations modelArmor = modelArmor();

		// As in docs/managing-templates.md, "Read, change one filter, update":
		TemplateOperations templates = modelArmor.templates();

		Template read = templates.get("support-bot");
		Template stricter = read.withFilterConfig(read.filterConfig()
				.withPiAndJailbreakFilterSettings(new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED,
						DetectionConfidenceLevel.LOW_AND_ABOVE)));
		templates.update("support-bot", stricter, List.of("filterConfig.piAndJailbreakFilterSettings"));

		server.verify(patchRequestedFor(urlPathEqualTo(TEMPLATES + "/support-bot"))
			.withQueryParam("updateMask", equalTo("filterConfig.piAndJailbreakFilterSettings"))
			.withRequestBody(equalToJson("""
					{"filterConfig": {
					   "raiSettings": {"raiFilters": [{"filterType": "VIOLENCE", "confidenceLevel": "HIGH"}]},
					   "piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED",
					     "confidenceLevel": "LOW_AND_ABOVE", "detector": "2026-06"}},
					 "templateMetadata": {"enforcementType": "INSPECT_AND_REDACT"}}""")));
	}

	@Test
	void floorSettingsForGooglesMcpServers() {
		String floorPath = "/v1/projects/my-project/locations/global/floorSetting";
		String floorJson = """
				{"name": "projects/my-project/locations/global/floorSetting", "filterConfig": {},
				 "integratedServices": ["AGENT_ENGINE"]}""";
		server.stubFor(get(urlPathEqualTo(floorPath)).willReturn(okJson(floorJson)));
		server.stubFor(patch(urlPathEqualTo(floorPath)).willReturn(okJson(floorJson)));
		ModelArmorOperations modelArmor = ModelArmorTemplate.builder()
			.endpoint(new ModelArmorEndpoint(URI.create(server.baseUrl()), URI.create(server.baseUrl())))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(1)))
			.projectId("my-project")
			.build();

		// As in docs/managing-templates.md, "Floor settings for Google's MCP servers":
		FloorSettingName project = FloorSettingName.project("my-project");
		FloorSetting floor = modelArmor.floorSettings().get(project);
		List<IntegratedService> services = new ArrayList<>(Objects.requireNonNullElse(floor.integratedServices(), List.of()));
		services.add(IntegratedService.GOOGLE_MCP_SERVER);
		modelArmor.floorSettings().update(project, floor
				.withIntegratedServices(services)
				.withGoogleMcpServerFloorSetting(McpServerFloorSetting.inspectAndBlock(true)),
				List.of("integratedServices", "googleMcpServerFloorSetting"));

		server.verify(patchRequestedFor(urlPathEqualTo(floorPath))
			.withQueryParam("updateMask", equalTo("integratedServices,googleMcpServerFloorSetting"))
			.withRequestBody(equalToJson("""
					{"name": "projects/my-project/locations/global/floorSetting", "filterConfig": {},
					 "integratedServices": ["AGENT_ENGINE", "GOOGLE_MCP_SERVER"],
					 "googleMcpServerFloorSetting": {"inspectAndBlock": true, "enableCloudLogging": true}}""")));
	}

	private static ModelArmorOperations modelArmor() {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(server.baseUrl()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(1)))
			.projectId("my-project")
			.build();
	}

}
