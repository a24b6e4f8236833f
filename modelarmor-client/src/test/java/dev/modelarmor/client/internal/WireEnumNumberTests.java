package dev.modelarmor.client.internal;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.List;
import java.util.stream.Stream;

import com.google.cloud.modelarmor.v1.ByteDataItem;
import com.google.cloud.modelarmor.v1.FloorSetting;
import com.google.cloud.modelarmor.v1.MaliciousUriFilterSettings.MaliciousUriFilterEnforcement;
import com.google.cloud.modelarmor.v1.MessageItem;
import com.google.cloud.modelarmor.v1.PiAndJailbreakFilterSettings.PiAndJailbreakFilterEnforcement;
import com.google.cloud.modelarmor.v1.SdpBasicConfig.SdpBasicConfigEnforcement;
import com.google.cloud.modelarmor.v1.Template;
import com.google.cloud.modelarmor.v1.VirusDetail;
import com.google.cloud.modelarmor.v1.VirusScanFilterResult;
import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.google.protobuf.ProtocolMessageEnum;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.modelarmor.client.ByteDataType;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.MessageType;
import dev.modelarmor.client.RaiFilterResult;
import dev.modelarmor.client.RaiFilterType;
import dev.modelarmor.client.ScannedContentType;
import dev.modelarmor.client.SdpFindingLikelihood;
import dev.modelarmor.client.ThreatType;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.TemplateMetadata;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proto3 JSON parsers accept an enum as its number as well as its name (Google's Java HttpJson stub even asks for
 * numbers). A number must read as the constant the official schema gives that number, never by the position of
 * our constants.
 */
class WireEnumNumberTests {

	/** Official enum, ours. Every wire enum of the client; a new one belongs here. */
	static Stream<Arguments> wireEnums() {
		return Stream.of(Arguments.of(com.google.cloud.modelarmor.v1.FilterMatchState.values(), FilterMatchState.class),
				Arguments.of(com.google.cloud.modelarmor.v1.FilterExecutionState.values(), FilterExecutionState.class),
				Arguments.of(com.google.cloud.modelarmor.v1.InvocationResult.values(), InvocationResult.class),
				Arguments.of(com.google.cloud.modelarmor.v1.SdpFindingLikelihood.values(), SdpFindingLikelihood.class),
				Arguments.of(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.values(),
						DetectionConfidenceLevel.class),
				Arguments.of(com.google.cloud.modelarmor.v1.RaiFilterType.values(), RaiFilterType.class),
				Arguments.of(MessageItem.MessageType.values(), MessageType.class),
				Arguments.of(VirusDetail.ThreatType.values(), ThreatType.class),
				Arguments.of(ByteDataItem.ByteItemType.values(), ByteDataType.class),
				Arguments.of(VirusScanFilterResult.ScannedContentType.values(), ScannedContentType.class),
				Arguments.of(PiAndJailbreakFilterEnforcement.values(), FilterEnforcement.class),
				Arguments.of(MaliciousUriFilterEnforcement.values(), FilterEnforcement.class),
				Arguments.of(SdpBasicConfigEnforcement.values(), FilterEnforcement.class),
				Arguments.of(FloorSetting.IntegratedService.values(), IntegratedService.class),
				Arguments.of(Template.TemplateMetadata.EnforcementType.values(),
						TemplateMetadata.EnforcementType.class));
	}

	@ParameterizedTest
	@MethodSource("wireEnums")
	void everyOfficialNumberReadsAsOurConstantOfTheSameName(Enum<?>[] official, Class<? extends Enum<?>> ours)
			throws Exception {
		for (Enum<?> constant : official) {
			if (constant.name().equals("UNRECOGNIZED")) {
				continue;
			}
			int number = ((ProtocolMessageEnum) constant).getNumber();
			Enum<?> expected = ourConstant(ours, constant.name());
			assertThat(read(String.valueOf(number), ours)).as("%s = %d", constant, number).isEqualTo(expected);
			assertThat(read("\"" + number + "\"", ours)).as("%s = \"%d\"", constant, number).isEqualTo(expected);
			assertThat(read("\"" + constant.name() + "\"", ours)).as("%s by name", constant).isEqualTo(expected);
		}
	}

	@ParameterizedTest
	@MethodSource("wireEnums")
	void aNumberTheSchemaDoesNotKnowReadsAsUnrecognized(Enum<?>[] official, Class<? extends Enum<?>> ours)
			throws Exception {
		List<Integer> known = Arrays.stream(official)
			.filter((constant) -> !constant.name().equals("UNRECOGNIZED"))
			.map((constant) -> ((ProtocolMessageEnum) constant).getNumber())
			.toList();
		Enum<?> unrecognized = ourConstant(ours, "UNRECOGNIZED");
		for (int number : new int[] { -1, 1, 4, 5, 8, 9, 10, 99, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE }) {
			if (!known.contains(number)) {
				assertThat(read(String.valueOf(number), ours)).as("%d", number).isEqualTo(unrecognized);
			}
		}
		assertThat(read("12345678901234567890", ours)).isEqualTo(unrecognized);
		assertThat(read("\"-\"", ours)).isEqualTo(unrecognized);
	}

	@Test
	void aVerdictReadByNumberKeepsItsMeaning() throws Exception {
		SanitizeResponse response = ModelArmorJson.mapper()
			.readValue("""
					{"sanitizationResult": {"filterMatchState": 2, "invocationResult": 1, "filterResults": {
					  "rai": {"raiFilterResult": {"executionState": 1, "matchState": 2, "raiFilterTypeResults": {
					    "sexually_explicit": {"filterType": 2, "confidenceLevel": 3, "matchState": 2},
					    "dangerous": {"filterType": 17, "matchState": 1}}}}}}}
					""", SanitizeResponse.class);
		assertThat(response.sanitizationResult().filterMatchState()).isEqualTo(FilterMatchState.MATCH_FOUND);
		assertThat(response.sanitizationResult().invocationResult()).isEqualTo(InvocationResult.SUCCESS);
		RaiFilterResult rai = response.sanitizationResult().filterResults().get("rai").raiFilterResult();
		assertThat(rai.raiFilterTypeResults().get("sexually_explicit").filterType())
			.isEqualTo(RaiFilterType.SEXUALLY_EXPLICIT);
		assertThat(rai.raiFilterTypeResults().get("dangerous").filterType()).isEqualTo(RaiFilterType.DANGEROUS);
	}

	@Test
	void everyEnumThatReadsUnknownValuesHasItsNumbers() throws Exception {
		Path classes = Path.of(WireEnumNumbers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		Set<Class<?>> withDefault = new HashSet<>();
		try (Stream<Path> files = Files.walk(classes.resolve("dev/modelarmor"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".class")).toList()) {
				String name = classes.relativize(file).toString().replace(File.separatorChar, '.').replace(".class", "");
				Class<?> type = Class.forName(name, false, getClass().getClassLoader());
				if (type.isEnum() && Arrays.stream(type.getFields())
					.anyMatch((field) -> field.isAnnotationPresent(JsonEnumDefaultValue.class))) {
					withDefault.add(type);
				}
			}
		}
		Set<Class<?>> tested = wireEnums().map((arguments) -> (Class<?>) arguments.get()[1]).collect(Collectors.toSet());
		tested.add(TemplateMetadata.Modality.class);
		assertThat(withDefault).hasSizeGreaterThanOrEqualTo(14);
		assertThat(WireEnumNumbers.wireEnums()).containsExactlyInAnyOrderElementsOf(withDefault)
			.containsExactlyInAnyOrderElementsOf(tested);
	}

	@Test
	void modalityReadsOnlyItsUnspecifiedByNumber() throws Exception {
		// MODALITY_TEXT and MODALITY_IMAGE are newer than the official schema on the class path: no guessed number.
		assertThat(read("0", TemplateMetadata.Modality.class)).isEqualTo(TemplateMetadata.Modality.MODALITY_UNSPECIFIED);
		assertThat(read("1", TemplateMetadata.Modality.class)).isEqualTo(TemplateMetadata.Modality.UNRECOGNIZED);
		assertThat(read("\"MODALITY_IMAGE\"", TemplateMetadata.Modality.class))
			.isEqualTo(TemplateMetadata.Modality.MODALITY_IMAGE);
	}

	@Test
	void aNumberWithAFractionOrAnExponentReadsAsUnrecognized() throws Exception {
		assertThat(read("2.0", FilterMatchState.class)).isEqualTo(FilterMatchState.UNRECOGNIZED);
		assertThat(read("2e0", FilterMatchState.class)).isEqualTo(FilterMatchState.UNRECOGNIZED);
		assertThat(read("\"2.5\"", FilterMatchState.class)).isEqualTo(FilterMatchState.UNRECOGNIZED);
		assertThat(read("\"\"", FilterMatchState.class)).isEqualTo(FilterMatchState.UNRECOGNIZED);
	}

	@Test
	void enumsAreStillWrittenByName() throws Exception {
		assertThat(ModelArmorJson.mapper().writeValueAsString(List.of(RaiFilterType.DANGEROUS, FilterEnforcement.ENABLED)))
			.isEqualTo("[\"DANGEROUS\",\"ENABLED\"]");
	}

	private static Object read(String json, Class<?> type) throws Exception {
		return ModelArmorJson.mapper().readValue(json, type);
	}

	private static Enum<?> ourConstant(Class<? extends Enum<?>> ours, String name) {
		for (Enum<?> constant : ours.getEnumConstants()) {
			if (constant.name().equals(name)) {
				return constant;
			}
		}
		// FilterEnforcement has no *_UNSPECIFIED: Google's reference calls it "disabled", we read it as not known.
		return ourConstant(ours, "UNRECOGNIZED");
	}

}
