package dev.modelarmor.screening.cache;

import java.lang.reflect.RecordComponent;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a verdict cache stores keeps the reflection hints it had while it lived in the client package: a
 * cache that writes JSON creates the records through their canonical constructors and reads their accessors.
 */
class VerdictCacheHintsTests {

	private static final RuntimeHints HINTS = registered();

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		new VerdictCacheHints().registerHints(hints, VerdictCacheHintsTests.class.getClassLoader());
		return hints;
	}

	static Stream<Class<?>> storedTypes() {
		return Stream.of(CachedVerdict.class, CachedVerdict.MatchedFilter.class, CachedVerdict.FilterKind.class);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("storedTypes")
	void everyStoredTypeIsHinted(Class<?> type) throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(HINTS);
		if (type.isRecord()) {
			Class<?>[] components = Stream.of(type.getRecordComponents())
				.map(RecordComponent::getType)
				.toArray(Class<?>[]::new);
			assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(type.getDeclaredConstructor(components)))
				.accepts(HINTS);
			for (RecordComponent component : type.getRecordComponents()) {
				assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()))
					.as(component.getAccessor().toString())
					.accepts(HINTS);
			}
		}
	}

	@Test
	void theHintsAreRegisteredForSpringAot() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class)).anyMatch(VerdictCacheHints.class::isInstance);
	}

}
