package dev.modelarmor.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.admin.AsRead;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.McpServerFloorSetting;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings.RaiFilter;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateMetadata.EnforcementType;
import dev.modelarmor.client.admin.TemplateMetadata.Modality;
import dev.modelarmor.client.admin.TemplateOperations;
import dev.modelarmor.client.internal.AsReadJson;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Templates and floor settings read from a Model Armor newer than this client, and sent back over real HTTP:
 * every member and enum value the records do not model travels back, at every depth, whatever is changed
 * beside it. The JSON sent is compared as JSON (member order aside) with what Model Armor sent, changed only
 * where the test changed the value.
 */
class AdminRoundTripTests {

	static final String TEMPLATES = "/v1/projects/p/locations/l/templates";

	static final String TEMPLATE = TEMPLATES + "/t";

	static final String FLOOR = "/v1/projects/p/locations/global/floorSetting";

	/** A template as a Model Armor newer than this client sends it: new members and enum values everywhere. */
	static final String NEWER_TEMPLATE = """
			{"name": "projects/p/locations/l/templates/t",
			 "createTime": "2026-01-02T03:04:05.123456789Z", "updateTime": "2026-03-01T00:00:00Z",
			 "labels": {"env": "prod", "owner": "UNRECOGNIZED"},
			 "filterConfig": {
			   "raiSettings": {"raiFilters": [
			     {"filterType": "DANGEROUS", "confidenceLevel": "HIGH"},
			     {"filterType": "VIOLENCE", "confidenceLevel": "MEDIUM_AND_ABOVE", "threshold": {"score": 0.25}},
			     {"filterType": "HARASSMENT", "confidenceLevel": "VERY_HIGH_ONLY"}]},
			   "sdpSettings": {"basicConfig": {"filterEnforcement": "ENABLED", "inspectImages": true}},
			   "piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED", "confidenceLevel": "LOW_AND_ABOVE",
			     "languages": ["en", "de"], "detector": {"version": "2026-06", "mode": "STRICT"}},
			   "maliciousUriFilterSettings": {"filterEnforcement": "ENFORCED_WITH_ALLOWLIST", "allowlist": ["example.com"]},
			   "deepfakeFilterSettings": {"filterEnforcement": "ENABLED"}},
			 "templateMetadata": {"logSanitizeOperations": true, "enforcementType": "INSPECT_AND_REDACT",
			   "multiLanguageDetection": {"enableMultiLanguageDetection": true, "sourceLanguages": ["fr"]},
			   "modalities": ["MODALITY_TEXT", "MODALITY_IMAGE"], "customPromptSafetyErrorCode": 403},
			 "filterVersion": {"alias": "STABLE"},
			 "etag": "W/\\"17\\""}
			""";

	/** A floor setting with Google's MCP servers, as Google documents it, and members newer than this client. */
	static final String NEWER_FLOOR_SETTING = """
			{"name": "projects/p/locations/global/floorSetting",
			 "createTime": "2026-01-02T03:04:05Z", "updateTime": "2026-02-02T00:00:00Z",
			 "filterConfig": {"piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED"},
			   "sdpSettings": {"advancedConfig": {"inspectTemplate": "projects/p/locations/l/inspectTemplates/i",
			     "redactImages": true}}},
			 "enableFloorSettingEnforcement": true,
			 "integratedServices": ["AI_PLATFORM", "GOOGLE_MCP_SERVER", "AGENT_ENGINE"],
			 "aiPlatformFloorSetting": {"inspectAndBlock": true, "enableCloudLogging": true},
			 "googleMcpServerFloorSetting": {"inspectOnly": true, "enableCloudLogging": true,
			   "apis": ["bigquery.googleapis.com/mcp"]},
			 "floorSettingMetadata": {"multiLanguageDetection": {"enableMultiLanguageDetection": false}},
			 "agentEngineFloorSetting": {"inspectOnly": true}}
			""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	TemplateOperations templates;

	FloorSettingOperations floorSettings;

	@BeforeEach
	void createClient() {
		ModelArmorTemplate client = ModelArmorTemplate.builder()
			.endpoint(new ModelArmorEndpoint(URI.create(modelArmor.baseUrl()), URI.create(modelArmor.baseUrl())))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(3)))
			.projectId("p")
			.location("l")
			.build();
		this.templates = client.templates();
		this.floorSettings = client.floorSettings();
	}

	// --- templates ---

	@Test
	void aTemplateReadAndSentBackAsReadKeepsEveryMemberAndEnumValue() {
		Template read = readNewerTemplate();

		this.templates.update("t", read);

		ServeEvent sent = onlyRequest();
		assertThat(mask(sent)).isEqualTo("labels,filterConfig,templateMetadata");
		assertThat(body(sent)).isEqualTo(withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime"));
	}

	@Test
	void theTypedViewOfANewerTemplateReadsUnknownValuesAsUnrecognized() {
		Template read = readNewerTemplate();

		assertThat(read.filterConfig().raiSettings().raiFilters()).containsExactly(
				new RaiFilter(RaiFilterType.DANGEROUS, DetectionConfidenceLevel.HIGH),
				new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.MEDIUM_AND_ABOVE),
				new RaiFilter(RaiFilterType.HARASSMENT, DetectionConfidenceLevel.UNRECOGNIZED));
		assertThat(read.filterConfig().maliciousUriFilterSettings().filterEnforcement())
			.isEqualTo(FilterEnforcement.UNRECOGNIZED);
		assertThat(read.templateMetadata().enforcementType()).isEqualTo(EnforcementType.UNRECOGNIZED);
		assertThat(read.asRead()).isNotNull();
		assertThat(json(read.asRead().json())).isEqualTo(json(NEWER_TEMPLATE));
		// Equality is about what the client models: a read template equals one built with its values.
		assertThat(read).isEqualTo(new Template(read.name(), read.createTime(), read.updateTime(), read.labels(),
				read.filterConfig(), read.templateMetadata()));
		assertThat(read.toString()).doesNotContain("W/").contains("AsRead[");
	}

	@Test
	void anUpdateUnderAnExplicitMaskSendsTheSameBodyAndThatMask() {
		Template read = readNewerTemplate();

		this.templates.update("t", read, List.of("filterConfig.piAndJailbreakFilterSettings"));

		ServeEvent sent = onlyRequest();
		assertThat(mask(sent)).isEqualTo("filterConfig.piAndJailbreakFilterSettings");
		assertThat(body(sent)).isEqualTo(withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime"));
	}

	@Test
	void changingOneFilterOfAReadTemplateKeepsEverythingElse() {
		Template read = readNewerTemplate();
		Template changed = read.withFilterConfig(read.filterConfig()
			.withPiAndJailbreakFilterSettings(new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED,
					DetectionConfidenceLevel.HIGH)));

		this.templates.update("t", changed, List.of("filterConfig.piAndJailbreakFilterSettings"));

		ObjectNode expected = withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime");
		((ObjectNode) expected.get("filterConfig").get("piAndJailbreakFilterSettings")).put("confidenceLevel", "HIGH");
		assertThat(body(onlyRequest())).isEqualTo(expected);
	}

	@Test
	void removingOneResponsibleAiFilterKeepsTheOthersAsRead() {
		Template read = readNewerTemplate();
		List<RaiFilter> filters = new ArrayList<>(read.filterConfig().raiSettings().raiFilters());
		filters.remove(0);
		filters.add(new RaiFilter(RaiFilterType.SEXUALLY_EXPLICIT, DetectionConfidenceLevel.LOW_AND_ABOVE));

		this.templates.update("t", read.withFilterConfig(read.filterConfig().withRaiSettings(new RaiFilterSettings(filters))));

		JsonNode raiFilters = body(onlyRequest()).get("filterConfig").get("raiSettings").get("raiFilters");
		assertThat(raiFilters).isEqualTo(json("""
				[{"filterType": "VIOLENCE", "confidenceLevel": "MEDIUM_AND_ABOVE", "threshold": {"score": 0.25}},
				 {"filterType": "HARASSMENT", "confidenceLevel": "VERY_HIGH_ONLY"},
				 {"filterType": "SEXUALLY_EXPLICIT", "confidenceLevel": "LOW_AND_ABOVE"}]
				"""));
	}

	@Test
	void changingTheLevelOfAFilterOfAnUnknownTypeKeepsItsType() {
		Template read = readNewerTemplate();
		List<RaiFilter> filters = new ArrayList<>(read.filterConfig().raiSettings().raiFilters());
		filters.set(1, new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.HIGH));

		this.templates.update("t", read.withFilterConfig(read.filterConfig().withRaiSettings(new RaiFilterSettings(filters))));

		assertThat(body(onlyRequest()).get("filterConfig").get("raiSettings").get("raiFilters").get(1))
			.isEqualTo(json("{\"filterType\": \"VIOLENCE\", \"confidenceLevel\": \"HIGH\", \"threshold\": {\"score\": 0.25}}"));
	}

	@Test
	void changingLabelsAndMetadataKeepsUnknownMetadataMembers() {
		Template read = readNewerTemplate();
		Map<String, String> labels = new LinkedHashMap<>(read.labels());
		labels.put("team", "ml");
		var metadata = read.templateMetadata();
		var newMetadata = new dev.modelarmor.client.admin.TemplateMetadata(metadata.ignorePartialInvocationFailures(),
				metadata.customPromptSafetyErrorCode(), "Blocked", metadata.customLlmResponseSafetyErrorCode(),
				metadata.customLlmResponseSafetyErrorMessage(), metadata.logTemplateOperations(),
				metadata.logSanitizeOperations(), metadata.enforcementType(), metadata.multiLanguageDetection(),
				metadata.modalities());

		this.templates.update("t", read.withLabels(labels).withTemplateMetadata(newMetadata));

		ObjectNode expected = withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime");
		((ObjectNode) expected.get("labels")).put("team", "ml");
		((ObjectNode) expected.get("templateMetadata")).put("customPromptSafetyErrorMessage", "Blocked");
		assertThat(body(onlyRequest())).isEqualTo(expected);
	}

	@Test
	void modalitiesReadByGooglesNamesAndAChangeKeepsTheRestOfTheMetadata() {
		Template read = readNewerTemplate();
		assertThat(read.templateMetadata().modalities()).containsExactly(Modality.MODALITY_TEXT, Modality.MODALITY_IMAGE);

		this.templates.update("t", read.withTemplateMetadata(read.templateMetadata().withModalities(
				List.of(Modality.MODALITY_TEXT))), List.of("templateMetadata.modalities"));

		ObjectNode expected = withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime");
		((ObjectNode) expected.get("templateMetadata")).set("modalities", json("[\"MODALITY_TEXT\"]"));
		assertThat(body(onlyRequest())).isEqualTo(expected);
	}

	/** A template with its enums as numbers, as proto3 JSON allows and Google's Java client asks for them. */
	static final String NUMBERED_TEMPLATE = """
			{"name": "projects/p/locations/l/templates/t",
			 "filterConfig": {
			   "raiSettings": {"raiFilters": [
			     {"filterType": 2, "confidenceLevel": 3},
			     {"filterType": 17, "confidenceLevel": "1"},
			     {"filterType": 99, "confidenceLevel": 2}]},
			   "sdpSettings": {"basicConfig": {"filterEnforcement": 1}},
			   "piAndJailbreakFilterSettings": {"filterEnforcement": 2, "confidenceLevel": 1},
			   "maliciousUriFilterSettings": {"filterEnforcement": 0}},
			 "templateMetadata": {"enforcementType": 7, "modalities": [1, 2]}}
			""";

	@Test
	void enumsReadAsNumbersMeanWhatTheProtoNumbersMean() {
		Template read = readTemplate(NUMBERED_TEMPLATE);

		List<RaiFilter> filters = read.filterConfig().raiSettings().raiFilters();
		assertThat(filters).containsExactly(new RaiFilter(RaiFilterType.SEXUALLY_EXPLICIT, DetectionConfidenceLevel.HIGH),
				new RaiFilter(RaiFilterType.DANGEROUS, DetectionConfidenceLevel.LOW_AND_ABOVE),
				new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.MEDIUM_AND_ABOVE));
		assertThat(read.filterConfig().sdpSettings().basicConfig().filterEnforcement())
			.isEqualTo(FilterEnforcement.ENABLED);
		assertThat(read.filterConfig().piAndJailbreakFilterSettings().filterEnforcement())
			.isEqualTo(FilterEnforcement.DISABLED);
		assertThat(read.filterConfig().maliciousUriFilterSettings().filterEnforcement())
			.isEqualTo(FilterEnforcement.UNRECOGNIZED);
		assertThat(read.templateMetadata().enforcementType()).isEqualTo(EnforcementType.UNRECOGNIZED);
	}

	@Test
	void enumsReadAsNumbersTravelBackAsReadBesideAChange() {
		Template read = readTemplate(NUMBERED_TEMPLATE);

		this.templates.update("t", read.withFilterConfig(read.filterConfig()
			.withPiAndJailbreakFilterSettings(new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED,
					DetectionConfidenceLevel.LOW_AND_ABOVE))));

		ObjectNode expected = withoutMembers(NUMBERED_TEMPLATE, "name");
		((ObjectNode) expected.get("filterConfig").get("piAndJailbreakFilterSettings")).put("filterEnforcement",
				"ENABLED");
		assertThat(body(onlyRequest())).isEqualTo(expected);
	}

	@Test
	void aFilterOfAnUnknownNumberKeepsItsNumberWhenItsLevelChanges() {
		Template read = readTemplate(NUMBERED_TEMPLATE);
		List<RaiFilter> filters = new ArrayList<>(read.filterConfig().raiSettings().raiFilters());
		filters.set(2, new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.HIGH));

		this.templates.update("t", read.withFilterConfig(read.filterConfig().withRaiSettings(new RaiFilterSettings(filters))));

		assertThat(body(onlyRequest()).get("filterConfig").get("raiSettings").get("raiFilters")).isEqualTo(json("""
				[{"filterType": 2, "confidenceLevel": 3},
				 {"filterType": 17, "confidenceLevel": "1"},
				 {"filterType": 99, "confidenceLevel": "HIGH"}]
				"""));
	}

	@Test
	void aTemplateCopiedToAnotherLocationKeepsEveryMember() {
		Template read = readNewerTemplate();
		modelArmor.stubFor(post(urlPathEqualTo("/v1/projects/p/locations/l2/templates"))
			.willReturn(okJson(NEWER_TEMPLATE.replace("locations/l/", "locations/l2/"))));
		TemplateOperations elsewhere = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(5)))
			.projectId("p")
			.location("l2")
			.build()
			.templates();

		Template copy = elsewhere.create("t-copy", read);

		ServeEvent sent = onlyRequest();
		assertThat(sent.getRequest().queryParameter("templateId").firstValue()).isEqualTo("t-copy");
		assertThat(body(sent)).isEqualTo(withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime"));
		assertThat(copy.name()).isEqualTo("projects/p/locations/l2/templates/t");
	}

	@Test
	void everyTemplateOfAListTravelsBackAsRead() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES))
			.willReturn(okJson("{\"templates\": [{\"name\": \"projects/p/locations/l/templates/a\", "
					+ "\"filterConfig\": {}}, " + NEWER_TEMPLATE + "], \"nextPageToken\": \"\"}")));
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATE)).willReturn(okJson(NEWER_TEMPLATE)));
		List<Template> all = this.templates.list();
		modelArmor.resetRequests();

		this.templates.update("t", all.get(1));

		assertThat(body(onlyRequest())).isEqualTo(withoutMembers(NEWER_TEMPLATE, "name", "createTime", "updateTime"));
		assertThat(json(all.get(0).asRead().json()))
			.isEqualTo(json("{\"name\": \"projects/p/locations/l/templates/a\", \"filterConfig\": {}}"));
	}

	@Test
	void unrecognizedBuiltInJavaIsRefusedBeforeAnythingIsSent() {
		Template built = Template.of(new FilterConfig(new RaiFilterSettings(
				List.of(new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.HIGH))), null, null, null));

		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.create("t", built))
			.withMessageStartingWith("template.filterConfig.raiSettings.raiFilters[0].filterType is UNRECOGNIZED");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.floorSettings.update(FloorSettingName.project("p"),
					new FloorSetting(null, null, null, null, null, List.of(IntegratedService.UNRECOGNIZED), null, null,
							null)))
			.withMessageStartingWith("floorSetting.integratedServices[0] is UNRECOGNIZED");
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void anUnknownValueAddedWhereNoneWasReadIsRefused() {
		Template read = readNewerTemplate();
		List<RaiFilter> filters = new ArrayList<>(read.filterConfig().raiSettings().raiFilters());
		filters.add(filters.get(1));

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.templates.update("t",
					read.withFilterConfig(read.filterConfig().withRaiSettings(new RaiFilterSettings(filters)))))
			.withMessageStartingWith("template.filterConfig.raiSettings.raiFilters[3].filterType is UNRECOGNIZED");
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aLabelWhoseValueIsTheWordUnrecognizedIsSent() {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(okJson(NEWER_TEMPLATE)));

		this.templates.create("t", Template.of(new FilterConfig(null, null, null, null))
			.withLabels(Map.of("state", "UNRECOGNIZED")));

		assertThat(body(onlyRequest())).isEqualTo(json("{\"labels\": {\"state\": \"UNRECOGNIZED\"}, \"filterConfig\": {}}"));
	}

	@Test
	void aValueModelArmorRefusesSurfacesGooglesMessage() {
		Template read = readNewerTemplate();
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATE)).willReturn(aResponse().withStatus(400)
			.withHeader("Content-Type", "application/json")
			.withBody("""
					{"error": {"code": 400, "status": "INVALID_ARGUMENT",
					  "message": "Invalid value at 'template.filter_config.rai_settings.rai_filters[1].filter_type'"}}
					""")));

		assertThatExceptionOfType(ModelArmorApiException.class).isThrownBy(() -> this.templates.update("t", read))
			.satisfies((ex) -> {
				assertThat(ex.statusCode()).isEqualTo(400);
				assertThat(ex.status()).isEqualTo("INVALID_ARGUMENT");
				assertThat(ex.getMessage()).contains(
						"Invalid value at 'template.filter_config.rai_settings.rai_filters[1].filter_type'");
				assertThat(ex.attempts()).isEqualTo(1);
			});
	}

	@Test
	void anAsReadThatIsNoTemplateIsRefusedWithoutQuotingIt() {
		Template odd = new Template(null, null, null, null, new FilterConfig(null, null, null, null), null,
				new AsRead("{\"filterConfig\": {\"raiSettings\": \"SECRET-4711\"}}"));

		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.update("t", odd))
			.withMessage("The template's asRead is not a template this client reads")
			.withMessageNotContaining("SECRET");
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aServerStringThatLooksLikeTheMarkerIsRefusedWithAPrintablePath() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE)).willReturn(okJson(
				"{\"filterConfig\": {}, \"x\\u001b[31m\": \"\\u0000UNRECOGNIZED\"}")));
		Template read = this.templates.get("t");
		modelArmor.resetRequests();

		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.update("t", read))
			.satisfies((ex) -> assertThat(ex.getMessage()).startsWith("template.x").doesNotContain("\u001b"));
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	// --- floor settings ---

	@Test
	void aFloorSettingWithGooglesMcpServersReadAndSentBackKeepsEveryMember() {
		FloorSetting read = readNewerFloorSetting();

		this.floorSettings.update(FloorSettingName.project("p"), read);

		ServeEvent sent = onlyRequest();
		assertThat(mask(sent)).isEqualTo("filterConfig,enableFloorSettingEnforcement,integratedServices,"
				+ "aiPlatformFloorSetting,googleMcpServerFloorSetting,floorSettingMetadata");
		assertThat(body(sent)).isEqualTo(withoutMembers(NEWER_FLOOR_SETTING, "createTime", "updateTime"));
		assertThat(body(sent).get("integratedServices"))
			.isEqualTo(json("[\"AI_PLATFORM\", \"GOOGLE_MCP_SERVER\", \"AGENT_ENGINE\"]"));
	}

	@Test
	void theTypedViewOfAFloorSettingNamesGooglesMcpServers() {
		FloorSetting read = readNewerFloorSetting();

		assertThat(read.integratedServices()).containsExactly(IntegratedService.AI_PLATFORM,
				IntegratedService.GOOGLE_MCP_SERVER, IntegratedService.UNRECOGNIZED);
		assertThat(read.googleMcpServerFloorSetting()).isEqualTo(McpServerFloorSetting.inspectOnly(true));
	}

	@Test
	void droppingOneServiceKeepsAnUnknownOneAsRead() {
		FloorSetting read = readNewerFloorSetting();
		List<IntegratedService> services = new ArrayList<>(read.integratedServices());
		services.remove(IntegratedService.AI_PLATFORM);

		this.floorSettings.update(FloorSettingName.project("p"), read.withIntegratedServices(services),
				List.of("integratedServices"));

		ObjectNode expected = withoutMembers(NEWER_FLOOR_SETTING, "createTime", "updateTime");
		expected.set("integratedServices", json("[\"GOOGLE_MCP_SERVER\", \"AGENT_ENGINE\"]"));
		assertThat(body(onlyRequest())).isEqualTo(expected);
	}

	@Test
	void switchingGooglesMcpServersToInspectAndBlockKeepsTheirUnknownMembers() {
		FloorSetting read = readNewerFloorSetting();

		this.floorSettings.update(FloorSettingName.project("p"),
				read.withGoogleMcpServerFloorSetting(McpServerFloorSetting.inspectAndBlock(true)));

		assertThat(body(onlyRequest()).get("googleMcpServerFloorSetting")).isEqualTo(
				json("{\"inspectAndBlock\": true, \"enableCloudLogging\": true, \"apis\": [\"bigquery.googleapis.com/mcp\"]}"));
	}

	@Test
	void googlesMcpServersBuiltInJavaAreSentWithGooglesNames() {
		modelArmor.stubFor(patch(urlPathEqualTo(FLOOR)).willReturn(okJson(NEWER_FLOOR_SETTING)));

		this.floorSettings.update(FloorSettingName.project("p"),
				new FloorSetting(null, null, null, null, null,
						List.of(IntegratedService.AI_PLATFORM, IntegratedService.GOOGLE_MCP_SERVER), null,
						McpServerFloorSetting.inspectOnly(false), null));

		ServeEvent sent = onlyRequest();
		assertThat(mask(sent)).isEqualTo("integratedServices,googleMcpServerFloorSetting");
		assertThat(body(sent)).isEqualTo(json("""
				{"integratedServices": ["AI_PLATFORM", "GOOGLE_MCP_SERVER"],
				 "googleMcpServerFloorSetting": {"inspectOnly": true, "enableCloudLogging": false}}
				"""));
	}

	@Test
	void aReadValueWhoseAsReadIsNoObjectIsRefused() {
		Template odd = new Template(null, null, null, null, new FilterConfig(null, null, null, null), null,
				new AsRead("[1]"));

		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.update("t", odd))
			.withMessage("The template's asRead is not a JSON object");
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	// --- against the official schema (proto-google-cloud-modelarmor-v1 in the build) ---

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.modelarmor.client.ManagementSchemaConformanceTests#officialTemplates")
	void anOfficialTemplateReadAndSentBackParsesStrictlyIntoTheSameMessage(String description,
			com.google.cloud.modelarmor.v1.Template official) throws Exception {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE)).willReturn(okJson(JsonFormat.printer().print(official))));
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATE)).willReturn(okJson("{}")));
		Template read = this.templates.get("t");
		modelArmor.resetRequests();

		this.templates.update("t", read, List.of());

		var sent = com.google.cloud.modelarmor.v1.Template.newBuilder();
		JsonFormat.parser().merge(onlyRequest().getRequest().getBodyAsString(), sent);
		assertThat(sent.build())
			.isEqualTo(official.toBuilder().clearName().clearCreateTime().clearUpdateTime().build());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.modelarmor.client.ManagementSchemaConformanceTests#officialFloorSettings")
	void anOfficialFloorSettingReadAndSentBackParsesStrictlyIntoTheSameMessage(String description,
			com.google.cloud.modelarmor.v1.FloorSetting official) throws Exception {
		modelArmor.stubFor(get(urlPathEqualTo(FLOOR)).willReturn(okJson(JsonFormat.printer().print(official))));
		modelArmor.stubFor(patch(urlPathEqualTo(FLOOR)).willReturn(okJson("{}")));
		FloorSetting read = this.floorSettings.get(FloorSettingName.project("p"));
		modelArmor.resetRequests();

		this.floorSettings.update(FloorSettingName.project("p"), read, List.of());

		var sent = com.google.cloud.modelarmor.v1.FloorSetting.newBuilder();
		JsonFormat.parser().merge(onlyRequest().getRequest().getBodyAsString(), sent);
		assertThat(sent.build()).isEqualTo(official.toBuilder().clearCreateTime().clearUpdateTime().build());
	}

	@Test
	void googlesMcpServerMembersAreNewerThanTheSchemaInTheBuildAndTheRestStillConforms() throws Exception {
		String body = ModelArmorJson.mapper()
			.writeValueAsString(AsReadJson.body(new FloorSetting(null, null, null, null, true,
					List.of(IntegratedService.AI_PLATFORM, IntegratedService.GOOGLE_MCP_SERVER), null,
					McpServerFloorSetting.inspectAndBlock(true), null)));

		// The schema jar (0.29.0) predates GOOGLE_MCP_SERVER and googleMcpServerFloorSetting in v1 ...
		assertThatExceptionOfType(InvalidProtocolBufferException.class)
			.isThrownBy(() -> JsonFormat.parser().merge(body, com.google.cloud.modelarmor.v1.FloorSetting.newBuilder()));
		// ... and what it knows of the body is as it defines it.
		var lenient = com.google.cloud.modelarmor.v1.FloorSetting.newBuilder();
		JsonFormat.parser().ignoringUnknownFields().merge(body, lenient);
		assertThat(lenient.getEnableFloorSettingEnforcement()).isTrue();
		assertThat(lenient.getIntegratedServicesList())
			.startsWith(com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.AI_PLATFORM);
	}

	// --- helpers ---

	private Template readNewerTemplate() {
		return readTemplate(NEWER_TEMPLATE);
	}

	private Template readTemplate(String json) {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE)).willReturn(okJson(json)));
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATE)).willReturn(okJson(json)));
		Template read = this.templates.get("t");
		modelArmor.resetRequests();
		return read;
	}

	private FloorSetting readNewerFloorSetting() {
		modelArmor.stubFor(get(urlPathEqualTo(FLOOR)).willReturn(okJson(NEWER_FLOOR_SETTING)));
		modelArmor.stubFor(patch(urlPathEqualTo(FLOOR)).willReturn(okJson(NEWER_FLOOR_SETTING)));
		FloorSetting read = this.floorSettings.get(FloorSettingName.project("p"));
		modelArmor.resetRequests();
		return read;
	}

	private static ServeEvent onlyRequest() {
		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(1);
		return events.get(0);
	}

	private static String mask(ServeEvent event) {
		return event.getRequest().queryParameter("updateMask").firstValue();
	}

	private static JsonNode body(ServeEvent event) {
		return json(event.getRequest().getBodyAsString());
	}

	static JsonNode json(String json) {
		return ModelArmorJson.mapper().readTree(json);
	}

	private static ObjectNode withoutMembers(String json, String... names) {
		ObjectNode node = (ObjectNode) json(json);
		for (String name : names) {
			node.remove(name);
		}
		return node;
	}

	private static ResponseDefinitionBuilder okJson(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
	}

}
