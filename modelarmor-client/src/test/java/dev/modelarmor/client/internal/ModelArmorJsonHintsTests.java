package dev.modelarmor.client.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record and enum of the client's packages that goes over the wire has the reflection hints a native
 * image needs to read and write it. The types are found by scanning the packages, so a new API record that
 * the hints do not reach fails here until it is reached or listed in {@link #NOT_ON_THE_WIRE}.
 */
class ModelArmorJsonHintsTests {

	/**
	 * The client's records and enums that Jackson never sees (arguments, settings, internal values), by name
	 * within {@code dev.modelarmor.client}.
	 */
	static final Set<String> NOT_ON_THE_WIRE = Set.of("internal.ApiCall", "CallResult", "HttpTimeouts", "ModelArmorEndpoint",
			"FloorSettingName", "SanitizeOptions", "SanitizationResult$Verdict", "ImageFormat", "TemplateReference");

	private static final RuntimeHints HINTS = registered();

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		new ModelArmorJsonHints().registerHints(hints, ModelArmorJsonHintsTests.class.getClassLoader());
		return hints;
	}

	static Stream<Class<?>> wireTypes() {
		return clientTypes().filter((type) -> !NOT_ON_THE_WIRE.contains(clientName(type)));
	}

	/** The records and enums of the client's packages, as compiled (nested ones included). */
	private static Stream<Class<?>> clientTypes() {
		try {
			Resource[] classFiles = new PathMatchingResourcePatternResolver()
				.getResources("classpath*:dev/modelarmor/client/**/*.class");
			return Arrays.stream(classFiles)
				.filter((file) -> !file.toString().contains("test-classes"))
				.map(ModelArmorJsonHintsTests::load)
				.filter((type) -> (type.isRecord() || type.isEnum()) && !type.isAnonymousClass() && !type.isLocalClass())
				.sorted(Comparator.comparing(Class::getName));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Class<?> load(Resource classFile) {
		try {
			String path = classFile.getURL().toString();
			String name = path.substring(path.lastIndexOf("dev/modelarmor/client/"), path.length() - ".class".length());
			return ClassUtils.forName(name.replace('/', '.'), ModelArmorJsonHintsTests.class.getClassLoader());
		}
		catch (IOException | ClassNotFoundException ex) {
			throw new IllegalStateException(classFile.toString(), ex);
		}
	}

	@Test
	void theScanFindsTheApiTypesAndEveryTypeLeftOutExists() {
		List<String> names = clientTypes().map(ModelArmorJsonHintsTests::clientName).toList();
		assertThat(names).contains("SanitizationResult", "SdpFinding", "FilterMatchState", "admin.Template", "admin.FilterEnforcement")
			.containsAll(NOT_ON_THE_WIRE);
		assertThat(wireTypes()).hasSizeGreaterThan(40);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("wireTypes")
	void everyRecordCanBeCreatedThroughItsCanonicalConstructorAndReadThroughItsAccessors(Class<?> type) {
		assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(HINTS);
		if (type.isRecord()) {
			Class<?>[] components = Arrays.stream(type.getRecordComponents())
				.map(RecordComponent::getType)
				.toArray(Class<?>[]::new);
			Constructor<?> canonical = assertCanonical(type, components);
			assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(canonical))
				.as("canonical constructor of " + type.getName())
				.accepts(HINTS);
			for (RecordComponent component : type.getRecordComponents()) {
				assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()))
					.as(component.getAccessor().toString())
					.accepts(HINTS);
			}
		}
	}

	@Test
	void aTypeNothingReachesIsNotHinted() {
		assertThat(RuntimeHintsPredicates.reflection().onType(ApiCall.class)).rejects(HINTS);
	}

	@Test
	void theHintsAreRegisteredForSpringAot() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.anyMatch(ModelArmorJsonHints.class::isInstance);
	}

	private static String clientName(Class<?> type) {
		return type.getName().substring("dev.modelarmor.client.".length());
	}

	private static Constructor<?> assertCanonical(Class<?> type, Class<?>[] components) {
		try {
			return type.getDeclaredConstructor(components);
		}
		catch (NoSuchMethodException ex) {
			throw new AssertionError(type.getName() + " has no canonical constructor", ex);
		}
	}

}
