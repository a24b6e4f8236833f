package dev.modelarmor.client;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.admin.AiPlatformFloorSetting;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.FloorSettingMetadata;
import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.TemplateMetadata.MultiLanguageDetection;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link ModelArmorOperations#floorSettings()} over real HTTP. Templates are served by one WireMock
 * server ({@code templatesServer}) and floor settings by another ({@code floorServer}), as Google serves
 * floor settings at its global endpoint only; every test checks that nothing reached the wrong one.
 */
class FloorSettingOperationsTests {

	static final String PROJECT = "/v1/projects/p/locations/global/floorSetting";

	static final String FLOOR_SETTING = """
			{"name": "projects/p/locations/global/floorSetting",
			 "createTime": "2026-01-02T03:04:05.5Z", "updateTime": "2026-01-03T00:00:00Z",
			 "filterConfig": {"piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED"}},
			 "enableFloorSettingEnforcement": true, "integratedServices": ["AI_PLATFORM"],
			 "aiPlatformFloorSetting": {"inspectAndBlock": true, "enableCloudLogging": true}}
			""";

	@RegisterExtension
	static WireMockExtension templatesServer = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort())
		.build();

	@RegisterExtension
	static WireMockExtension floorServer = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	VirtualTime time;

	FloorSettingOperations floorSettings;

	@BeforeEach
	void createClient() {
		this.time = new VirtualTime();
		this.floorSettings = client(new ModelArmorEndpoint(URI.create(templatesServer.baseUrl()),
				URI.create(floorServer.baseUrl())))
			.floorSettings();
	}

	ModelArmorTemplate client(ModelArmorEndpoint endpoint) {
		return ModelArmorTemplate.builder()
			.endpoint(endpoint)
			.retryRuntime(this.time.runtime(new SplittableRandom(11)))
			.projectId("p")
			.templateId("t")
			.build();
	}

	static List<Arguments> names() {
		return List.of(Arguments.of(FloorSettingName.project("p"), PROJECT),
				Arguments.of(FloorSettingName.folder("123456"), "/v1/folders/123456/locations/global/floorSetting"),
				Arguments.of(FloorSettingName.organization("987"), "/v1/organizations/987/locations/global/floorSetting"),
				Arguments.of(FloorSettingName.project("p").in("us-central1"),
						"/v1/projects/p/locations/us-central1/floorSetting"),
				Arguments.of(FloorSettingName.organization("987").in("eu"),
						"/v1/organizations/987/locations/eu/floorSetting"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("names")
	void getReadsTheFloorSettingOfAProjectFolderOrOrganization(FloorSettingName name, String path) {
		floorServer.stubFor(get(urlPathEqualTo(path)).willReturn(okJson(FLOOR_SETTING)));

		FloorSetting setting = this.floorSettings.get(name);

		assertThat(setting.name()).isEqualTo("projects/p/locations/global/floorSetting");
		assertThat(setting.createTime()).isEqualTo(Instant.parse("2026-01-02T03:04:05.5Z"));
		assertThat(setting.enableFloorSettingEnforcement()).isTrue();
		assertThat(setting.integratedServices()).containsExactly(IntegratedService.AI_PLATFORM);
		assertThat(setting.aiPlatformFloorSetting()).isEqualTo(new AiPlatformFloorSetting(null, true, true));
		floorServer.verify(1, getRequestedFor(urlPathEqualTo(path)));
		assertThat(floorServer.getAllServeEvents()).hasSize(1);
		templatesServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aGetAnswered503IsRetried() {
		failThenAnswer(aResponse().withStatus(503), okJson(FLOOR_SETTING));

		assertThat(this.floorSettings.get(FloorSettingName.project("p")).enableFloorSettingEnforcement()).isTrue();

		floorServer.verify(2, getRequestedFor(urlPathEqualTo(PROJECT)));
		assertThat(this.time.sleeps()).hasSize(1);
		templatesServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void updateSendsPatchWithTheMaskOfTheGivenFieldsAndAStrictlyValidBody() throws Exception {
		floorServer.stubFor(patch(urlPathEqualTo(PROJECT)).willReturn(okJson(FLOOR_SETTING)));
		FloorSetting changes = new FloorSetting("projects/p/locations/global/floorSetting",
				Instant.parse("2020-01-01T00:00:00Z"), Instant.parse("2020-01-02T00:00:00Z"),
				new FilterConfig(null, null,
						new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.HIGH), null),
				true, List.of(IntegratedService.AI_PLATFORM), new AiPlatformFloorSetting(true, null, false), null,
				new FloorSettingMetadata(new MultiLanguageDetection(true)));

		FloorSetting updated = this.floorSettings.update(FloorSettingName.project("p"), changes);

		assertThat(updated.enableFloorSettingEnforcement()).isTrue();
		ServeEvent event = onlyFloorEvent();
		assertThat(event.getRequest().getMethod().getName()).isEqualTo("PATCH");
		assertThat(event.getRequest().queryParameter("updateMask").values()).containsExactly(
				"filterConfig,enableFloorSettingEnforcement,integratedServices,aiPlatformFloorSetting,floorSettingMetadata");
		// The API has no request id for floor settings; none is invented.
		assertThat(event.getRequest().queryParameter("requestId").isPresent()).isFalse();
		String body = event.getRequest().getBodyAsString();
		JsonNode tree = ModelArmorJson.mapper().readTree(body);
		assertThat(tree.has("createTime")).isFalse();
		assertThat(tree.has("updateTime")).isFalse();
		var official = com.google.cloud.modelarmor.v1.FloorSetting.newBuilder();
		JsonFormat.parser().merge(body, official);
		assertThat(official.getName()).isEqualTo("projects/p/locations/global/floorSetting");
		assertThat(official.getEnableFloorSettingEnforcement()).isTrue();
		assertThat(official.getIntegratedServicesList())
			.containsExactly(com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.AI_PLATFORM);
		assertThat(official.getAiPlatformFloorSetting().getInspectOnly()).isTrue();
		assertThat(official.getAiPlatformFloorSetting().getEnableCloudLogging()).isFalse();
		assertThat(tree.get("aiPlatformFloorSetting").get("enableCloudLogging").asBoolean(true)).isFalse();
		assertThat(official.getFloorSettingMetadata().getMultiLanguageDetection().getEnableMultiLanguageDetection())
			.isTrue();
		templatesServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void updateOfOneFieldMasksThatFieldOnly() {
		floorServer.stubFor(patch(urlPathEqualTo("/v1/folders/42/locations/global/floorSetting"))
			.willReturn(okJson(FLOOR_SETTING)));

		this.floorSettings.update(FloorSettingName.folder("42"),
				new FloorSetting(null, null, null, null, false, null, null, null, null));

		floorServer.verify(1, patchRequestedFor(urlPathEqualTo("/v1/folders/42/locations/global/floorSetting"))
			.withQueryParam("updateMask", equalTo("enableFloorSettingEnforcement")));
	}

	@Test
	void anExplicitMaskIsSentAsGivenAndAnEmptyOneNotAtAll() {
		floorServer.stubFor(patch(urlPathEqualTo(PROJECT)).willReturn(okJson(FLOOR_SETTING)));
		FloorSetting setting = new FloorSetting(null, null, null, null, true, null, null, null, null);

		this.floorSettings.update(FloorSettingName.project("p"), setting,
				List.of("filterConfig.piAndJailbreakFilterSettings", "enableFloorSettingEnforcement"));
		floorServer.verify(1, patchRequestedFor(urlPathEqualTo(PROJECT)).withQueryParam("updateMask",
				equalTo("filterConfig.piAndJailbreakFilterSettings,enableFloorSettingEnforcement")));

		floorServer.resetRequests();
		this.floorSettings.update(FloorSettingName.project("p"), setting, List.of());
		floorServer.verify(1, patchRequestedFor(urlPathEqualTo(PROJECT)).withQueryParam("updateMask", absent()));
	}

	@Test
	void anUpdateThatGivesNoFieldFailsBeforeAnyRequest() {
		FloorSetting onlyOutputFields = new FloorSetting("projects/p/locations/global/floorSetting", Instant.EPOCH,
				Instant.EPOCH, null, null, null, null, null, null);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.floorSettings.update(FloorSettingName.project("p"), onlyOutputFields))
			.withMessageContaining("no field");
		floorServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void anUpdateAnswered503IsNotRetried() {
		failThenAnswer(aResponse().withStatus(503), okJson(FLOOR_SETTING));

		assertThatExceptionOfType(ModelArmorApiException.class)
			.isThrownBy(() -> this.floorSettings.update(FloorSettingName.project("p"),
					new FloorSetting(null, null, null, null, true, null, null, null, null)))
			.satisfies((ex) -> {
				assertThat(ex.statusCode()).isEqualTo(503);
				assertThat(ex.attempts()).isEqualTo(1);
				assertThat(ex.earlierAttemptOutcomeUnknown()).isFalse();
			});
		floorServer.verify(1, anyRequestedFor(anyUrl()));
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void anUpdateWhoseConnectionIsResetIsNotRetried() {
		floorServer.stubFor(patch(urlPathEqualTo(PROJECT)).willReturn(
				aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));

		assertThatExceptionOfType(ModelArmorException.class)
			.isThrownBy(() -> this.floorSettings.update(FloorSettingName.project("p"),
					new FloorSetting(null, null, null, null, true, null, null, null, null)))
			.satisfies((ex) -> assertThat(ex.attempts()).isEqualTo(1));
		floorServer.verify(1, anyRequestedFor(anyUrl()));
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void anExplicitEndpointServesFloorSettingsToo() {
		ModelArmorEndpoint endpoint = ModelArmorEndpoint.of(templatesServer.baseUrl() + "/");
		assertThat(endpoint.floorSettingsUri()).isEqualTo(endpoint.uri());
		assertThat(endpoint.uri()).hasToString(templatesServer.baseUrl());
		templatesServer.stubFor(get(urlPathEqualTo(PROJECT)).willReturn(okJson(FLOOR_SETTING)));

		client(endpoint).floorSettings().get(FloorSettingName.project("p"));

		templatesServer.verify(1, getRequestedFor(urlPathEqualTo(PROJECT)));
		floorServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aRegionalEndpointServesFloorSettingsFromTheGlobalOne() {
		ModelArmorEndpoint regional = ModelArmorEndpoint.regional("us-central1");

		assertThat(regional.floorSettingsUri()).hasToString("https://modelarmor.googleapis.com");
		assertThat(regional.floorSettingsUri()).hasToString(ModelArmorEndpoint.GLOBAL);
		assertThat(regional.uri()).hasToString("https://modelarmor.us-central1.rep.googleapis.com");
	}

	@Test
	void withTemplateKeepsTheFloorSettingsEndpoint() {
		floorServer.stubFor(get(urlPathEqualTo(PROJECT)).willReturn(okJson(FLOOR_SETTING)));
		ModelArmorTemplate client = client(new ModelArmorEndpoint(URI.create(templatesServer.baseUrl()),
				URI.create(floorServer.baseUrl())));

		client.withTemplate("other").floorSettings().get(FloorSettingName.project("p"));

		floorServer.verify(1, getRequestedFor(urlPathEqualTo(PROJECT)));
		templatesServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void templatesStayOnTheTemplatesEndpoint() {
		templatesServer.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/us-central1/templates"))
			.willReturn(okJson("{}")));
		ModelArmorTemplate client = client(new ModelArmorEndpoint(URI.create(templatesServer.baseUrl()),
				URI.create(floorServer.baseUrl())));

		assertThat(client.templates().list()).isEmpty();

		templatesServer.verify(1, anyRequestedFor(anyUrl()));
		floorServer.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void floorSettingNamesRejectUnknownParentsAndEmptyIds() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FloorSettingName("billingAccounts", "1", "global"));
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettingName.project(""));
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettingName.project("p").in(" "));
		assertThat(FloorSettingName.folder("7").in("us")).hasToString("folders/7/locations/us/floorSetting");
	}

	private static void failThenAnswer(ResponseDefinitionBuilder failure, ResponseDefinitionBuilder answer) {
		floorServer.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlPathEqualTo(PROJECT))
			.inScenario("retry")
			.whenScenarioStateIs(STARTED)
			.willReturn(failure)
			.willSetStateTo("answered"));
		floorServer.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlPathEqualTo(PROJECT))
			.inScenario("retry")
			.whenScenarioStateIs("answered")
			.willReturn(answer));
	}

	private static ResponseDefinitionBuilder okJson(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
	}

	private static ServeEvent onlyFloorEvent() {
		List<ServeEvent> events = floorServer.getAllServeEvents();
		assertThat(events).hasSize(1);
		return events.get(0);
	}

}
