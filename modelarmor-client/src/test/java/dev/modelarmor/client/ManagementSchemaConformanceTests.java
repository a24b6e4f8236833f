package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.google.cloud.modelarmor.v1.MaliciousUriFilterSettings.MaliciousUriFilterEnforcement;
import com.google.cloud.modelarmor.v1.PiAndJailbreakFilterSettings.PiAndJailbreakFilterEnforcement;
import com.google.cloud.modelarmor.v1.SdpBasicConfig.SdpBasicConfigEnforcement;
import com.google.protobuf.ProtocolMessageEnum;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.admin.AiPlatformFloorSetting;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.FloorSettingMetadata;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.MaliciousUriFilterSettings;
import dev.modelarmor.client.admin.McpServerFloorSetting;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings.RaiFilter;
import dev.modelarmor.client.admin.SdpFilterSettings;
import dev.modelarmor.client.admin.SdpFilterSettings.SdpAdvancedConfig;
import dev.modelarmor.client.admin.SdpFilterSettings.SdpBasicConfig;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateMetadata;
import dev.modelarmor.client.admin.TemplateMetadata.EnforcementType;
import dev.modelarmor.client.admin.TemplateMetadata.MultiLanguageDetection;
import dev.modelarmor.client.internal.ListTemplatesResponse;
import dev.modelarmor.client.internal.ModelArmorJson;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JacksonException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Conformance of the template and floor-setting records with the official schema,
 * {@code com.google.api.grpc:proto-google-cloud-modelarmor-v1}: what the official messages print
 * reads field by field into our records, and what our records write parses strictly back into the
 * same official messages.
 */
class ManagementSchemaConformanceTests {

	// Strict: unknown fields and unknown enum values are errors.
	private static final JsonFormat.Parser PARSER = JsonFormat.parser();

	private static final Timestamp CREATED = Timestamp.newBuilder().setSeconds(1735732800L).setNanos(123456789).build();

	private static final Timestamp UPDATED = Timestamp.newBuilder().setSeconds(1735736400L).setNanos(0).build();

	private static final String TEMPLATE_NAME = "projects/my-proj/locations/us-central1/templates/my-tpl";

	// --- official -> ours -> official ---

	static Stream<Arguments> officialTemplates() {
		return Stream.of(Arguments.of("basic SDP", fullOfficialTemplate(officialBasicSdp())),
				Arguments.of("advanced SDP", fullOfficialTemplate(officialAdvancedSdp("deidentify"))),
				Arguments.of("advanced SDP without de-identify", fullOfficialTemplate(officialAdvancedSdp(null))),
				Arguments.of("name only", com.google.cloud.modelarmor.v1.Template.newBuilder()
					.setName(TEMPLATE_NAME)
					.build()),
				Arguments.of("empty", com.google.cloud.modelarmor.v1.Template.getDefaultInstance()));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("officialTemplates")
	void officialTemplateReadsFieldByFieldAndRoundTrips(String description,
			com.google.cloud.modelarmor.v1.Template official) throws Exception {
		Template ours = read(JsonFormat.printer().print(official), Template.class);
		assertSameTemplate(ours, official);
		var reparsed = com.google.cloud.modelarmor.v1.Template.newBuilder();
		PARSER.merge(json(ours), reparsed);
		assertThat(reparsed.build()).isEqualTo(official);
	}

	static Stream<Arguments> officialFloorSettings() {
		return Stream.of(
				Arguments.of("inspect only",
						fullOfficialFloorSetting(com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.newBuilder()
							.setInspectOnly(true)
							.setEnableCloudLogging(true)
							.build(), true)),
				Arguments.of("inspect and block",
						fullOfficialFloorSetting(com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.newBuilder()
							.setInspectAndBlock(true)
							.build(), false)),
				// A oneof member and an optional field set to false are present and must stay so.
				Arguments.of("inspect only false",
						fullOfficialFloorSetting(com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.newBuilder()
							.setInspectOnly(false)
							.build(), false)),
				Arguments.of("empty AI platform setting",
						fullOfficialFloorSetting(
								com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.getDefaultInstance(), true)),
				Arguments.of("empty", com.google.cloud.modelarmor.v1.FloorSetting.getDefaultInstance()));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("officialFloorSettings")
	void officialFloorSettingReadsFieldByFieldAndRoundTrips(String description,
			com.google.cloud.modelarmor.v1.FloorSetting official) throws Exception {
		FloorSetting ours = read(JsonFormat.printer().print(official), FloorSetting.class);
		assertSameFloorSetting(ours, official);
		var reparsed = com.google.cloud.modelarmor.v1.FloorSetting.newBuilder();
		PARSER.merge(json(ours), reparsed);
		assertThat(reparsed.build()).isEqualTo(official);
	}

	@Test
	void officialListTemplatesResponseReadsFieldByFieldAndRoundTrips() throws Exception {
		var official = com.google.cloud.modelarmor.v1.ListTemplatesResponse.newBuilder()
			.addTemplates(fullOfficialTemplate(officialBasicSdp()))
			.addTemplates(fullOfficialTemplate(officialAdvancedSdp("deidentify")))
			.setNextPageToken("page-2")
			.addUnreachable("projects/my-proj/locations/europe-west4")
			.addUnreachable("projects/my-proj/locations/asia-east1")
			.build();
		ListTemplatesResponse ours = read(JsonFormat.printer().print(official), ListTemplatesResponse.class);
		assertThat(ours.templates()).hasSize(official.getTemplatesCount());
		for (int i = 0; i < official.getTemplatesCount(); i++) {
			assertSameTemplate(ours.templates().get(i), official.getTemplates(i));
		}
		assertThat(ours.nextPageToken()).isEqualTo("page-2");
		assertThat(ours.unreachable()).isEqualTo(official.getUnreachableList());
		var reparsed = com.google.cloud.modelarmor.v1.ListTemplatesResponse.newBuilder();
		PARSER.merge(json(ours), reparsed);
		assertThat(reparsed.build()).isEqualTo(official);
	}

	@Test
	void lastEmptyListTemplatesPageReadsAsNulls() throws Exception {
		var official = com.google.cloud.modelarmor.v1.ListTemplatesResponse.getDefaultInstance();
		ListTemplatesResponse ours = read(JsonFormat.printer().print(official), ListTemplatesResponse.class);
		assertThat(ours).isEqualTo(new ListTemplatesResponse(null, null, null));
		assertThat(json(ours)).isEqualTo("{}");
	}

	@Test
	void multiLanguageDetectionMetadataConforms() throws Exception {
		var official = com.google.cloud.modelarmor.v1.MultiLanguageDetectionMetadata.newBuilder()
			.setSourceLanguage("de")
			.setEnableMultiLanguageDetection(true)
			.build();
		MultiLanguageDetectionMetadata ours = read(JsonFormat.printer().print(official),
				MultiLanguageDetectionMetadata.class);
		assertThat(ours).isEqualTo(new MultiLanguageDetectionMetadata("de", true));
		var reparsed = com.google.cloud.modelarmor.v1.MultiLanguageDetectionMetadata.newBuilder();
		PARSER.merge(json(ours), reparsed);
		assertThat(reparsed.build()).isEqualTo(official);
		assertThat(json(new MultiLanguageDetectionMetadata(null, true)))
			.isEqualTo("{\"enableMultiLanguageDetection\":true}");
	}

	// --- ours -> official ---

	@Test
	void templateBuiltInJavaParsesIntoTheOfficialTemplate() throws Exception {
		Template ours = new Template(null, null, null, Map.of("team", "ml"),
				new FilterConfig(
						new RaiFilterSettings(List.of(new RaiFilter(RaiFilterType.HATE_SPEECH,
								DetectionConfidenceLevel.MEDIUM_AND_ABOVE))),
						SdpFilterSettings.advanced("projects/p/locations/l/inspectTemplates/i", null),
						new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.HIGH),
						new MaliciousUriFilterSettings(FilterEnforcement.DISABLED)),
				new TemplateMetadata(true, 403, "blocked", null, null, null, true, EnforcementType.INSPECT_ONLY,
						new MultiLanguageDetection(true)));
		var official = com.google.cloud.modelarmor.v1.Template.newBuilder();
		PARSER.merge(json(ours), official);
		assertSameTemplate(ours, official.build());
	}

	@Test
	void floorSettingBuiltInJavaParsesIntoTheOfficialFloorSetting() throws Exception {
		FloorSetting ours = new FloorSetting("projects/p/locations/global/floorSetting", null, null,
				new FilterConfig(null, SdpFilterSettings.basic(FilterEnforcement.ENABLED), null, null), false,
				List.of(IntegratedService.AI_PLATFORM), new AiPlatformFloorSetting(null, true, false), null,
				new FloorSettingMetadata(new MultiLanguageDetection(false)));
		var official = com.google.cloud.modelarmor.v1.FloorSetting.newBuilder();
		PARSER.merge(json(ours), official);
		assertThat(official.hasEnableFloorSettingEnforcement()).isTrue();
		assertThat(official.getEnableFloorSettingEnforcement()).isFalse();
		assertThat(official.getAiPlatformFloorSetting().getInspectAndBlock()).isTrue();
		assertThat(official.getFloorSettingMetadata().hasMultiLanguageDetection()).isTrue();
		assertThat(official.getFilterConfig().getSdpSettings().getBasicConfig().getFilterEnforcement())
			.isEqualTo(SdpBasicConfigEnforcement.ENABLED);
		assertThat(official.getIntegratedServicesList())
			.containsExactly(com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.AI_PLATFORM);
	}

	@Test
	void timestampsTravelAsRfc3339Strings() throws Exception {
		var official = com.google.cloud.modelarmor.v1.Template.newBuilder()
			.setCreateTime(CREATED)
			.setUpdateTime(UPDATED)
			.build();
		String printed = JsonFormat.printer().print(official);
		assertThat(printed).contains("\"2025-01-01T12:00:00.123456789Z\"").contains("\"2025-01-01T13:00:00Z\"");
		Template ours = read(printed, Template.class);
		assertThat(ours.createTime()).isEqualTo(Instant.parse("2025-01-01T12:00:00.123456789Z"));
		assertThat(ours.updateTime()).isEqualTo(Instant.parse("2025-01-01T13:00:00Z"));
		assertThat(json(ours)).isEqualTo(
				"{\"createTime\":\"2025-01-01T12:00:00.123456789Z\",\"updateTime\":\"2025-01-01T13:00:00Z\"}");
		Template millis = new Template(null, Instant.parse("2025-01-01T12:00:00.120Z"), null, null, null, null);
		assertThat(json(millis)).isEqualTo("{\"createTime\":\"2025-01-01T12:00:00.120Z\"}");
		var reparsed = com.google.cloud.modelarmor.v1.Template.newBuilder();
		PARSER.merge(json(millis), reparsed);
		assertThat(reparsed.getCreateTime())
			.isEqualTo(Timestamp.newBuilder().setSeconds(1735732800L).setNanos(120_000_000).build());
	}

	@Test
	void timestampWithAnOffsetReads() {
		// Proto3 JSON accepts offsets other than Z when parsing.
		Template ours = read("{\"createTime\":\"2025-01-01T13:00:00.5+01:00\"}", Template.class);
		assertThat(ours.createTime()).isEqualTo(Instant.parse("2025-01-01T12:00:00.500Z"));
	}

	// --- enums: every official value has a counterpart ---

	static Stream<Arguments> enumPairs() {
		return Stream.of(Arguments.of(PiAndJailbreakFilterEnforcement.values(), FilterEnforcement.class),
				Arguments.of(MaliciousUriFilterEnforcement.values(), FilterEnforcement.class),
				Arguments.of(SdpBasicConfigEnforcement.values(), FilterEnforcement.class),
				Arguments.of(com.google.cloud.modelarmor.v1.Template.TemplateMetadata.EnforcementType.values(),
						EnforcementType.class),
				Arguments.of(com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.values(),
						IntegratedService.class));
	}

	@ParameterizedTest
	@MethodSource("enumPairs")
	<E extends Enum<E>> void enumHasEveryOfficialValue(Enum<?>[] official, Class<E> ours) {
		Set<String> ourNames = Arrays.stream(ours.getEnumConstants()).map(Enum::name).collect(Collectors.toSet());
		Set<String> officialNames = Arrays.stream(official)
			.map(Enum::name)
			.filter((name) -> !name.equals("UNRECOGNIZED"))
			.filter((name) -> ours != FilterEnforcement.class || !name.endsWith("_UNSPECIFIED"))
			.collect(Collectors.toSet());
		assertThat(ourNames).contains("UNRECOGNIZED").containsAll(officialNames);
		// Values Google's v1 reference gained after the schema in the build (0.29.0).
		Set<String> newer = Set.of("GOOGLE_MCP_SERVER");
		assertThat(ourNames).hasSize(officialNames.size() + 1
				+ (int) ourNames.stream().filter(newer::contains).count());
	}

	@Test
	void unspecifiedEnforcementsReadAsUnrecognized() {
		for (String unspecified : List.of("PI_AND_JAILBREAK_FILTER_ENFORCEMENT_UNSPECIFIED",
				"MALICIOUS_URI_FILTER_ENFORCEMENT_UNSPECIFIED", "SDP_BASIC_CONFIG_ENFORCEMENT_UNSPECIFIED")) {
			assertThat(read("{\"filterEnforcement\":\"" + unspecified + "\"}", MaliciousUriFilterSettings.class))
				.isEqualTo(new MaliciousUriFilterSettings(FilterEnforcement.UNRECOGNIZED));
		}
	}

	@Test
	void officialTemplateWithDefaultValuesPrintedReads() throws Exception {
		var official = com.google.cloud.modelarmor.v1.Template.newBuilder()
			.setFilterConfig(com.google.cloud.modelarmor.v1.FilterConfig.newBuilder()
				.setSdpSettings(com.google.cloud.modelarmor.v1.SdpFilterSettings.newBuilder()
					.setBasicConfig(com.google.cloud.modelarmor.v1.SdpBasicConfig.getDefaultInstance()))
				.setPiAndJailbreakFilterSettings(
						com.google.cloud.modelarmor.v1.PiAndJailbreakFilterSettings.getDefaultInstance())
				.setMaliciousUriFilterSettings(
						com.google.cloud.modelarmor.v1.MaliciousUriFilterSettings.getDefaultInstance())
				.setRaiSettings(com.google.cloud.modelarmor.v1.RaiFilterSettings.getDefaultInstance()))
			.setTemplateMetadata(com.google.cloud.modelarmor.v1.Template.TemplateMetadata.getDefaultInstance())
			.build();
		Template ours = read(JsonFormat.printer().alwaysPrintFieldsWithNoPresence().print(official), Template.class);
		FilterConfig filters = ours.filterConfig();
		assertThat(filters.sdpSettings().basicConfig().filterEnforcement()).isEqualTo(FilterEnforcement.UNRECOGNIZED);
		assertThat(filters.piAndJailbreakFilterSettings()).isEqualTo(new PiAndJailbreakFilterSettings(
				FilterEnforcement.UNRECOGNIZED, DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED));
		assertThat(filters.raiSettings().raiFilters()).isEmpty();
		assertThat(ours.labels()).isEmpty();
		assertThat(ours.name()).isEmpty();
		assertThat(ours.templateMetadata()).isEqualTo(new TemplateMetadata(false, 0, "", 0, "", false, false,
				EnforcementType.ENFORCEMENT_TYPE_UNSPECIFIED, null));
	}

	// --- unknown values, helpers, oneofs, copies, null handling ---

	@Test
	void unknownFieldsAndEnumValuesRead() {
		Template ours = read("""
				{ "name": "projects/p/locations/l/templates/t", "futureField": { "x": [1, 2] },
				  "filterConfig": {
				    "raiSettings": { "raiFilters": [ { "filterType": "SELF_HARM", "confidenceLevel": "VERY_HIGH" } ] },
				    "sdpSettings": { "basicConfig": { "filterEnforcement": "AUDIT", "newKnob": true } },
				    "piAndJailbreakFilterSettings": { "filterEnforcement": "ENABLED", "confidenceLevel": "EXTREME" },
				    "maliciousUriFilterSettings": { "filterEnforcement": "SOMETIMES" },
				    "csamFilterSettings": { "filterEnforcement": "ENABLED" } },
				  "templateMetadata": { "enforcementType": "INSPECT_AND_REPORT", "modalities": [ "MODALITY_TEXT" ] } }
				""", Template.class);
		FilterConfig filters = ours.filterConfig();
		assertThat(filters.raiSettings().raiFilters())
			.containsExactly(new RaiFilter(RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.UNRECOGNIZED));
		assertThat(filters.sdpSettings().basicConfig().filterEnforcement()).isEqualTo(FilterEnforcement.UNRECOGNIZED);
		assertThat(filters.piAndJailbreakFilterSettings()).isEqualTo(
				new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.UNRECOGNIZED));
		assertThat(filters.maliciousUriFilterSettings().filterEnforcement()).isEqualTo(FilterEnforcement.UNRECOGNIZED);
		assertThat(ours.templateMetadata().enforcementType()).isEqualTo(EnforcementType.UNRECOGNIZED);
		assertThat(ours.id()).isEqualTo("t");

		FloorSetting floor = read("""
				{ "integratedServices": [ "AI_PLATFORM", "GOOGLE_MCP_SERVER", "AGENT_ENGINE" ],
				  "googleMcpServerFloorSetting": { "inspectOnly": true, "apis": [ "run.googleapis.com/mcp" ] },
				  "agentEngineFloorSetting": { "inspectOnly": true },
				  "aiPlatformFloorSetting": { "inspectOnly": true, "newMode": 1 } }
				""", FloorSetting.class);
		assertThat(floor.integratedServices()).containsExactly(IntegratedService.AI_PLATFORM,
				IntegratedService.GOOGLE_MCP_SERVER, IntegratedService.UNRECOGNIZED);
		assertThat(floor.googleMcpServerFloorSetting()).isEqualTo(new McpServerFloorSetting(true, null, null));
		assertThat(floor.aiPlatformFloorSetting()).isEqualTo(new AiPlatformFloorSetting(true, null, null));
	}

	@Test
	void idIsTheLastSegmentOfTheName() {
		assertThat(new Template(TEMPLATE_NAME, null, null, null, null, null).id()).isEqualTo("my-tpl");
		assertThat(new Template("my-tpl", null, null, null, null, null).id()).isEqualTo("my-tpl");
		assertThat(Template.of(new FilterConfig(null, null, null, null)).id()).isNull();
	}

	@Test
	void templateWithoutOutputFieldsKeepsWhatACreateSends() {
		FilterConfig filters = new FilterConfig(null, null, null, new MaliciousUriFilterSettings(FilterEnforcement.ENABLED));
		TemplateMetadata metadata = new TemplateMetadata(null, null, null, null, null, true, null, null, null);
		Template full = new Template(TEMPLATE_NAME, Instant.EPOCH, Instant.EPOCH, Map.of("k", "v"), filters, metadata);
		assertThat(full.withoutOutputFields())
			.isEqualTo(new Template(null, null, null, Map.of("k", "v"), filters, metadata));
		assertThat(json(full.withoutOutputFields())).isEqualTo("{\"labels\":{\"k\":\"v\"},\"filterConfig\":"
				+ "{\"maliciousUriFilterSettings\":{\"filterEnforcement\":\"ENABLED\"}},"
				+ "\"templateMetadata\":{\"logTemplateOperations\":true}}");
	}

	@Test
	void floorSettingWithoutOutputFieldsKeepsTheName() {
		FilterConfig filters = new FilterConfig(null, SdpFilterSettings.basic(FilterEnforcement.ENABLED), null, null);
		FloorSetting full = new FloorSetting("projects/p/locations/global/floorSetting", Instant.EPOCH, Instant.EPOCH,
				filters, true, List.of(IntegratedService.AI_PLATFORM), new AiPlatformFloorSetting(true, null, true), null,
				new FloorSettingMetadata(new MultiLanguageDetection(true)));
		assertThat(full.withoutOutputFields()).isEqualTo(new FloorSetting("projects/p/locations/global/floorSetting",
				null, null, filters, true, List.of(IntegratedService.AI_PLATFORM),
				new AiPlatformFloorSetting(true, null, true), null, new FloorSettingMetadata(new MultiLanguageDetection(true))));
	}

	@Test
	void sdpSettingsRejectBothConfigurations() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SdpFilterSettings(new SdpBasicConfig(FilterEnforcement.ENABLED),
					new SdpAdvancedConfig("projects/p/locations/l/inspectTemplates/i", null)));
		assertThatExceptionOfType(JacksonException.class).isThrownBy(() -> read(
				"{\"basicConfig\":{\"filterEnforcement\":\"ENABLED\"},\"advancedConfig\":{\"inspectTemplate\":\"i\"}}",
				SdpFilterSettings.class));
		assertThat(SdpFilterSettings.basic(FilterEnforcement.DISABLED))
			.isEqualTo(new SdpFilterSettings(new SdpBasicConfig(FilterEnforcement.DISABLED), null));
		assertThat(SdpFilterSettings.advanced("i", "d"))
			.isEqualTo(new SdpFilterSettings(null, new SdpAdvancedConfig("i", "d")));
		assertThat(json(SdpFilterSettings.advanced("i", null))).isEqualTo("{\"advancedConfig\":{\"inspectTemplate\":\"i\"}}");
		assertThat(new SdpFilterSettings(null, null).basicConfig()).isNull();
	}

	@Test
	void aiPlatformFloorSettingRejectsBothModes() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new AiPlatformFloorSetting(true, false, null));
		assertThatExceptionOfType(JacksonException.class)
			.isThrownBy(() -> read("{\"inspectOnly\":true,\"inspectAndBlock\":false}", AiPlatformFloorSetting.class));
	}

	@Test
	void collectionsAreUnmodifiableCopiesAndNullStaysNull() {
		Map<String, String> labels = new java.util.LinkedHashMap<>();
		labels.put("z", "1");
		labels.put("a", "2");
		Template template = new Template(null, null, null, labels, null, null);
		labels.put("b", "3");
		assertThat(template.labels()).containsExactly(Map.entry("z", "1"), Map.entry("a", "2"));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> template.labels().put("c", "4"));
		assertThat(json(template)).isEqualTo("{\"labels\":{\"z\":\"1\",\"a\":\"2\"}}");

		List<RaiFilter> raiFilters = new java.util.ArrayList<>(List.of(new RaiFilter(RaiFilterType.DANGEROUS, null)));
		RaiFilterSettings rai = new RaiFilterSettings(raiFilters);
		raiFilters.clear();
		assertThat(rai.raiFilters()).hasSize(1);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> rai.raiFilters().clear());

		List<IntegratedService> services = new java.util.ArrayList<>(List.of(IntegratedService.AI_PLATFORM));
		FloorSetting floor = new FloorSetting(null, null, null, null, null, services, null, null, null);
		services.clear();
		assertThat(floor.integratedServices()).containsExactly(IntegratedService.AI_PLATFORM);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> floor.integratedServices().add(IntegratedService.AI_PLATFORM));

		List<String> unreachable = new java.util.ArrayList<>(List.of("l1"));
		ListTemplatesResponse page = new ListTemplatesResponse(new java.util.ArrayList<>(), null, unreachable);
		unreachable.clear();
		assertThat(page.unreachable()).containsExactly("l1");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> page.templates().add(template));

		assertThat(new Template(null, null, null, null, null, null).labels()).isNull();
		assertThat(new RaiFilterSettings(null).raiFilters()).isNull();
		assertThat(new FloorSetting(null, null, null, null, null, null, null, null, null).integratedServices()).isNull();
		assertThat(new ListTemplatesResponse(null, null, null).templates()).isNull();
		// An empty list is given, not absent.
		assertThat(new RaiFilterSettings(List.of()).raiFilters()).isEmpty();
		assertThat(read("{\"raiFilters\":[]}", RaiFilterSettings.class).raiFilters()).isEmpty();
		assertThat(read("{}", RaiFilterSettings.class).raiFilters()).isNull();
	}

	@Test
	void nullFieldsAreLeftOutWhenWritten() {
		Template template = Template.of(new FilterConfig(null, null,
				new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, null), null));
		assertThat(json(template))
			.isEqualTo("{\"filterConfig\":{\"piAndJailbreakFilterSettings\":{\"filterEnforcement\":\"ENABLED\"}}}");
		assertThat(json(new Template(null, null, null, null, null, null))).isEqualTo("{}");
		assertThat(json(new FloorSetting(null, null, null, null, null, null, null, null, null))).isEqualTo("{}");
		assertThat(json(new TemplateMetadata(null, null, null, null, null, null, null, null, null))).isEqualTo("{}");
		assertThat(json(new AiPlatformFloorSetting(null, false, null))).isEqualTo("{\"inspectAndBlock\":false}");
		assertThat(read("{}", Template.class)).isEqualTo(new Template(null, null, null, null, null, null));
	}

	@Test
	void factoriesRejectNull() {
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> Template.of(null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> SdpFilterSettings.basic(null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> SdpFilterSettings.advanced(null, "d"));
	}

	// --- official builders ---

	private static com.google.cloud.modelarmor.v1.SdpFilterSettings officialBasicSdp() {
		return com.google.cloud.modelarmor.v1.SdpFilterSettings.newBuilder()
			.setBasicConfig(com.google.cloud.modelarmor.v1.SdpBasicConfig.newBuilder()
				.setFilterEnforcement(SdpBasicConfigEnforcement.ENABLED))
			.build();
	}

	private static com.google.cloud.modelarmor.v1.SdpFilterSettings officialAdvancedSdp(
			@Nullable String deidentify) {
		var advanced = com.google.cloud.modelarmor.v1.SdpAdvancedConfig.newBuilder()
			.setInspectTemplate("projects/my-proj/locations/us-central1/inspectTemplates/inspect");
		if (deidentify != null) {
			advanced.setDeidentifyTemplate("projects/my-proj/locations/us-central1/deidentifyTemplates/" + deidentify);
		}
		return com.google.cloud.modelarmor.v1.SdpFilterSettings.newBuilder().setAdvancedConfig(advanced).build();
	}

	private static com.google.cloud.modelarmor.v1.FilterConfig fullOfficialFilterConfig(
			com.google.cloud.modelarmor.v1.SdpFilterSettings sdp) {
		var rai = com.google.cloud.modelarmor.v1.RaiFilterSettings.newBuilder();
		var levels = Arrays.stream(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.values())
			.filter((level) -> level != com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.UNRECOGNIZED)
			.toList();
		var types = Arrays.stream(com.google.cloud.modelarmor.v1.RaiFilterType.values())
			.filter((type) -> type != com.google.cloud.modelarmor.v1.RaiFilterType.UNRECOGNIZED)
			.toList();
		for (int i = 0; i < types.size(); i++) {
			rai.addRaiFilters(com.google.cloud.modelarmor.v1.RaiFilterSettings.RaiFilter.newBuilder()
				.setFilterType(types.get(i))
				.setConfidenceLevel(levels.get((i + 1) % levels.size())));
		}
		return com.google.cloud.modelarmor.v1.FilterConfig.newBuilder()
			.setRaiSettings(rai)
			.setSdpSettings(sdp)
			.setPiAndJailbreakFilterSettings(com.google.cloud.modelarmor.v1.PiAndJailbreakFilterSettings.newBuilder()
				.setFilterEnforcement(PiAndJailbreakFilterEnforcement.ENABLED)
				.setConfidenceLevel(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.MEDIUM_AND_ABOVE))
			.setMaliciousUriFilterSettings(com.google.cloud.modelarmor.v1.MaliciousUriFilterSettings.newBuilder()
				.setFilterEnforcement(MaliciousUriFilterEnforcement.DISABLED))
			.build();
	}

	private static com.google.cloud.modelarmor.v1.Template fullOfficialTemplate(
			com.google.cloud.modelarmor.v1.SdpFilterSettings sdp) {
		return com.google.cloud.modelarmor.v1.Template.newBuilder()
			.setName(TEMPLATE_NAME)
			.setCreateTime(CREATED)
			.setUpdateTime(UPDATED)
			.putLabels("team", "ml-platform")
			.putLabels("env", "prod")
			.setFilterConfig(fullOfficialFilterConfig(sdp))
			.setTemplateMetadata(com.google.cloud.modelarmor.v1.Template.TemplateMetadata.newBuilder()
				.setIgnorePartialInvocationFailures(true)
				.setCustomPromptSafetyErrorCode(451)
				.setCustomPromptSafetyErrorMessage("Prompt blocked \u2603 \"quoted\"")
				.setCustomLlmResponseSafetyErrorCode(-1)
				.setCustomLlmResponseSafetyErrorMessage("Response blocked")
				.setLogTemplateOperations(true)
				.setLogSanitizeOperations(true)
				.setEnforcementType(
						com.google.cloud.modelarmor.v1.Template.TemplateMetadata.EnforcementType.INSPECT_ONLY)
				.setMultiLanguageDetection(
						com.google.cloud.modelarmor.v1.Template.TemplateMetadata.MultiLanguageDetection.newBuilder()
							.setEnableMultiLanguageDetection(true)))
			.build();
	}

	private static com.google.cloud.modelarmor.v1.FloorSetting fullOfficialFloorSetting(
			com.google.cloud.modelarmor.v1.AiPlatformFloorSetting aiPlatform, boolean enforcement) {
		return com.google.cloud.modelarmor.v1.FloorSetting.newBuilder()
			.setName("projects/my-proj/locations/global/floorSetting")
			.setCreateTime(CREATED)
			.setUpdateTime(UPDATED)
			.setFilterConfig(fullOfficialFilterConfig(officialAdvancedSdp("deidentify")))
			.setEnableFloorSettingEnforcement(enforcement)
			.addIntegratedServices(com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.AI_PLATFORM)
			.addIntegratedServices(
					com.google.cloud.modelarmor.v1.FloorSetting.IntegratedService.INTEGRATED_SERVICE_UNSPECIFIED)
			.setAiPlatformFloorSetting(aiPlatform)
			.setFloorSettingMetadata(com.google.cloud.modelarmor.v1.FloorSetting.FloorSettingMetadata.newBuilder()
				.setMultiLanguageDetection(
						com.google.cloud.modelarmor.v1.FloorSetting.FloorSettingMetadata.MultiLanguageDetection
							.newBuilder()
							.setEnableMultiLanguageDetection(true)))
			.build();
	}

	// --- field-by-field comparison; a proto3 default that the printer leaves out reads as null ---

	private static void assertSameTemplate(Template ours, com.google.cloud.modelarmor.v1.Template official) {
		assertThat(ours.name()).isEqualTo(present(official.getName()));
		assertThat(ours.createTime()).isEqualTo(official.hasCreateTime() ? instant(official.getCreateTime()) : null);
		assertThat(ours.updateTime()).isEqualTo(official.hasUpdateTime() ? instant(official.getUpdateTime()) : null);
		if (official.getLabelsCount() == 0) {
			assertThat(ours.labels()).isNull();
		}
		else {
			assertThat(ours.labels()).isEqualTo(official.getLabelsMap());
		}
		assertSameFilterConfig(ours.filterConfig(), official.hasFilterConfig() ? official.getFilterConfig() : null);
		if (!official.hasTemplateMetadata()) {
			assertThat(ours.templateMetadata()).isNull();
			return;
		}
		var metadata = official.getTemplateMetadata();
		TemplateMetadata ourMetadata = ours.templateMetadata();
		assertThat(ourMetadata).isNotNull();
		assertThat(ourMetadata.ignorePartialInvocationFailures())
			.isEqualTo(present(metadata.getIgnorePartialInvocationFailures()));
		assertThat(ourMetadata.customPromptSafetyErrorCode())
			.isEqualTo(present(metadata.getCustomPromptSafetyErrorCode()));
		assertThat(ourMetadata.customPromptSafetyErrorMessage())
			.isEqualTo(present(metadata.getCustomPromptSafetyErrorMessage()));
		assertThat(ourMetadata.customLlmResponseSafetyErrorCode())
			.isEqualTo(present(metadata.getCustomLlmResponseSafetyErrorCode()));
		assertThat(ourMetadata.customLlmResponseSafetyErrorMessage())
			.isEqualTo(present(metadata.getCustomLlmResponseSafetyErrorMessage()));
		assertThat(ourMetadata.logTemplateOperations()).isEqualTo(present(metadata.getLogTemplateOperations()));
		assertThat(ourMetadata.logSanitizeOperations()).isEqualTo(present(metadata.getLogSanitizeOperations()));
		assertSameEnum(ourMetadata.enforcementType(), metadata.getEnforcementType());
		if (metadata.hasMultiLanguageDetection()) {
			assertThat(ourMetadata.multiLanguageDetection()).isEqualTo(new MultiLanguageDetection(
					present(metadata.getMultiLanguageDetection().getEnableMultiLanguageDetection())));
		}
		else {
			assertThat(ourMetadata.multiLanguageDetection()).isNull();
		}
	}

	private static void assertSameFloorSetting(FloorSetting ours, com.google.cloud.modelarmor.v1.FloorSetting official) {
		assertThat(ours.name()).isEqualTo(present(official.getName()));
		assertThat(ours.createTime()).isEqualTo(official.hasCreateTime() ? instant(official.getCreateTime()) : null);
		assertThat(ours.updateTime()).isEqualTo(official.hasUpdateTime() ? instant(official.getUpdateTime()) : null);
		assertSameFilterConfig(ours.filterConfig(), official.hasFilterConfig() ? official.getFilterConfig() : null);
		assertThat(ours.enableFloorSettingEnforcement()).isEqualTo(
				official.hasEnableFloorSettingEnforcement() ? official.getEnableFloorSettingEnforcement() : null);
		if (official.getIntegratedServicesCount() == 0) {
			assertThat(ours.integratedServices()).isNull();
		}
		else {
			assertThat(ours.integratedServices()).extracting(Enum::name)
				.isEqualTo(official.getIntegratedServicesList().stream().map(Enum::name).toList());
		}
		if (official.hasAiPlatformFloorSetting()) {
			var aiPlatform = official.getAiPlatformFloorSetting();
			var oneof = aiPlatform.getEnforcementTypeCase();
			assertThat(ours.aiPlatformFloorSetting()).isEqualTo(new AiPlatformFloorSetting(
					(oneof == com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.EnforcementTypeCase.INSPECT_ONLY)
							? aiPlatform.getInspectOnly() : null,
					(oneof == com.google.cloud.modelarmor.v1.AiPlatformFloorSetting.EnforcementTypeCase.INSPECT_AND_BLOCK)
							? aiPlatform.getInspectAndBlock() : null,
					present(aiPlatform.getEnableCloudLogging())));
		}
		else {
			assertThat(ours.aiPlatformFloorSetting()).isNull();
		}
		if (official.hasFloorSettingMetadata()) {
			var metadata = official.getFloorSettingMetadata();
			assertThat(ours.floorSettingMetadata()).isEqualTo(new FloorSettingMetadata(
					metadata.hasMultiLanguageDetection() ? new MultiLanguageDetection(
							present(metadata.getMultiLanguageDetection().getEnableMultiLanguageDetection())) : null));
		}
		else {
			assertThat(ours.floorSettingMetadata()).isNull();
		}
	}

	private static void assertSameFilterConfig(@Nullable FilterConfig ours,
			com.google.cloud.modelarmor.v1.@Nullable FilterConfig official) {
		if (official == null) {
			assertThat(ours).isNull();
			return;
		}
		assertThat(ours).isNotNull();
		if (official.hasRaiSettings()) {
			var filters = official.getRaiSettings().getRaiFiltersList();
			if (filters.isEmpty()) {
				assertThat(ours.raiSettings().raiFilters()).isNull();
			}
			else {
				assertThat(ours.raiSettings().raiFilters()).hasSize(filters.size());
				for (int i = 0; i < filters.size(); i++) {
					assertSameEnum(ours.raiSettings().raiFilters().get(i).filterType(), filters.get(i).getFilterType());
					assertSameEnum(ours.raiSettings().raiFilters().get(i).confidenceLevel(),
							filters.get(i).getConfidenceLevel());
				}
			}
		}
		else {
			assertThat(ours.raiSettings()).isNull();
		}
		if (official.hasSdpSettings()) {
			var sdp = official.getSdpSettings();
			SdpFilterSettings ourSdp = ours.sdpSettings();
			assertThat(ourSdp).isNotNull();
			if (sdp.hasBasicConfig()) {
				assertThat(ourSdp.basicConfig()).isNotNull();
				assertSameEnum(ourSdp.basicConfig().filterEnforcement(), sdp.getBasicConfig().getFilterEnforcement());
			}
			else {
				assertThat(ourSdp.basicConfig()).isNull();
			}
			if (sdp.hasAdvancedConfig()) {
				assertThat(ourSdp.advancedConfig())
					.isEqualTo(new SdpAdvancedConfig(present(sdp.getAdvancedConfig().getInspectTemplate()),
							present(sdp.getAdvancedConfig().getDeidentifyTemplate())));
			}
			else {
				assertThat(ourSdp.advancedConfig()).isNull();
			}
		}
		else {
			assertThat(ours.sdpSettings()).isNull();
		}
		if (official.hasPiAndJailbreakFilterSettings()) {
			var pi = official.getPiAndJailbreakFilterSettings();
			assertThat(ours.piAndJailbreakFilterSettings()).isNotNull();
			assertSameEnum(ours.piAndJailbreakFilterSettings().filterEnforcement(), pi.getFilterEnforcement());
			assertSameEnum(ours.piAndJailbreakFilterSettings().confidenceLevel(), pi.getConfidenceLevel());
		}
		else {
			assertThat(ours.piAndJailbreakFilterSettings()).isNull();
		}
		if (official.hasMaliciousUriFilterSettings()) {
			assertThat(ours.maliciousUriFilterSettings()).isNotNull();
			assertSameEnum(ours.maliciousUriFilterSettings().filterEnforcement(),
					official.getMaliciousUriFilterSettings().getFilterEnforcement());
		}
		else {
			assertThat(ours.maliciousUriFilterSettings()).isNull();
		}
	}

	// The printer leaves out an enum's default (number 0), which then reads as null.
	private static void assertSameEnum(@Nullable Enum<?> ours, ProtocolMessageEnum official) {
		if (official.getNumber() == 0) {
			assertThat(ours).isNull();
		}
		else {
			assertThat(ours).isNotNull();
			assertThat(ours.name()).isEqualTo(((Enum<?>) official).name());
		}
	}

	private static @Nullable Boolean present(boolean value) {
		return value ? Boolean.TRUE : null;
	}

	private static @Nullable Integer present(int value) {
		return (value != 0) ? value : null;
	}

	private static @Nullable String present(String value) {
		return value.isEmpty() ? null : value;
	}

	private static Instant instant(Timestamp timestamp) {
		return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
	}

	static <T> T read(String json, Class<T> type) {
		return ModelArmorJson.mapper().readValue(json.getBytes(StandardCharsets.UTF_8), type);
	}

	static String json(Object value) {
		return ModelArmorJson.mapper().writeValueAsString(value);
	}

}
