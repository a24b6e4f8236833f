package dev.modelarmor.client.internal;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.SchemaConformanceTests;
import dev.modelarmor.client.admin.AdminProbe;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.clientprobe.LookalikeProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RecordConstructorInstantiators} changes how the API's records are created and nothing else:
 * every answer reads into the same records as with Jackson alone, and a constructor that refuses its
 * arguments fails exactly as Jackson reports it.
 */
class RecordConstructorInstantiatorsTests {

	private static final JsonMapper JACKSON_ONLY = ModelArmorJson.jacksonOnly().build();

	private static final String JACKSONS_INSTANTIATOR = StdValueInstantiator.class.getName();

	@Test
	void aFullSanitizeAnswerReadsIntoTheSameRecordsAsWithJacksonAlone() throws Exception {
		assertSameAsJacksonAlone(com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse.newBuilder()
			.setSanitizationResult(SchemaConformanceTests.fullOfficialResult())
			.build(), SanitizeResponse.class);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.modelarmor.client.ManagementSchemaConformanceTests#officialTemplates")
	void templatesReadIntoTheSameRecordsAsWithJacksonAlone(String description,
			com.google.cloud.modelarmor.v1.Template official) throws Exception {
		assertSameAsJacksonAlone(official, Template.class);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.modelarmor.client.ManagementSchemaConformanceTests#officialFloorSettings")
	void floorSettingsReadIntoTheSameRecordsAsWithJacksonAlone(String description,
			com.google.cloud.modelarmor.v1.FloorSetting official) throws Exception {
		assertSameAsJacksonAlone(official, FloorSetting.class);
	}

	// What the JDK runs below Constructor.newInstance differs (bytecode accessors on 17, method handles since
	// 18, JEP 416), so this checks who calls the constructor, on every JDK: the instantiator, through core
	// reflection, rather than Jackson's own instantiator with MethodHandle.invokeWithArguments.
	@Test
	void theApisRecordsAreCreatedByTheirConstructorThroughReflection() {
		Probe probe = ModelArmorJson.mapper().readValue("{\"name\":\"a\"}", Probe.class);

		assertThat(probe.createdBy()).containsSubsequence(Constructor.class.getName(),
				RecordConstructorInstantiators.class.getName() + "$ByConstructor")
			.doesNotContain(JACKSONS_INSTANTIATOR, MethodHandle.class.getName());
		assertThat(JACKSON_ONLY.readValue("{\"name\":\"a\"}", Probe.class).createdBy())
			.as("Jackson alone, for contrast")
			.contains(JACKSONS_INSTANTIATOR, MethodHandle.class.getName())
			.doesNotContain(RecordConstructorInstantiators.class.getName() + "$ByConstructor");
	}

	@Test
	void theManagementRecordsOfTheAdminPackageAreCreatedTheSameWay() {
		AdminProbe probe = ModelArmorJson.mapper().readValue("{\"name\":\"a\"}", AdminProbe.class);

		assertThat(probe.createdBy()).contains(RecordConstructorInstantiators.class.getName() + "$ByConstructor");
	}

	@Test
	void aRecordOfAPackageThatOnlySharesTheNamesStartIsLeftToJackson() {
		LookalikeProbe probe = ModelArmorJson.mapper().readValue("{\"name\":\"a\"}", LookalikeProbe.class);

		assertThat(probe.createdBy()).doesNotContain(RecordConstructorInstantiators.class.getName() + "$ByConstructor");
	}

	@Test
	void aConstructorThatRefusesItsArgumentsFailsAsWithJacksonAlone() {
		String json = "{\"value\": -1}";

		ValueInstantiationException ours = catchInstantiation(ModelArmorJson.mapper(), json);
		ValueInstantiationException jacksons = catchInstantiation(JACKSON_ONLY, json);

		assertThat(ours.getOriginalMessage()).isEqualTo(jacksons.getOriginalMessage());
		assertThat(ours.getCause()).isInstanceOf(IllegalArgumentException.class).hasMessage("value must not be negative");
		assertThat(ours.getLocation()).isEqualTo(jacksons.getLocation());
	}

	private static <T> void assertSameAsJacksonAlone(MessageOrBuilder official, Class<T> type) throws Exception {
		byte[] json = JsonFormat.printer().print(official).getBytes(StandardCharsets.UTF_8);

		T ours = ModelArmorJson.mapper().readValue(json, type);

		// The wire mapper also keeps the JSON as read, which Jackson alone does not.
		assertThat(ours).usingRecursiveComparison().ignoringFields("asRead").isEqualTo(JACKSON_ONLY.readValue(json, type));
	}

	private static ValueInstantiationException catchInstantiation(JsonMapper mapper, String json) {
		return assertThatExceptionOfType(ValueInstantiationException.class)
			.isThrownBy(() -> mapper.readValue(json, Strict.class))
			.actual();
	}

	/** Remembers the stack that created it, through the canonical constructor as every API record is. */
	record Probe(String name, List<String> createdBy) {

		Probe {
			createdBy = StackWalker
				.getInstance(Set.of(StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES))
				.walk((frames) -> frames.map(StackWalker.StackFrame::getClassName).toList());
		}

	}

	/** Refuses negative values. */
	record Strict(int value) {

		Strict {
			if (value < 0) {
				throw new IllegalArgumentException("value must not be negative");
			}
		}

	}

}
