package dev.modelarmor.client.internal;

import java.lang.reflect.Type;

import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.Template;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Reflection hints for the records and enums that {@link ModelArmorJson} reads and writes, so that the
 * client works in a native image: their canonical constructors (Jackson, and
 * {@link RecordConstructorInstantiators}, create records through them), their accessors (requests are
 * written through them) and their enum constants. Registered in {@code META-INF/spring/aot.factories}.
 *
 * <p>Only the bodies that go over the wire are named; Spring's binding registrar follows their components,
 * element and map-value types, so a record that one of them holds is covered without being listed here.
 */
final class ModelArmorJsonHints implements RuntimeHintsRegistrar {

	/** Every request and answer body of the sanitize and management calls. */
	static final Type[] BODIES = { SanitizeUserPromptRequest.class, SanitizeModelResponseRequest.class,
			SanitizeResponse.class, ListTemplatesResponse.class, Template.class, FloorSetting.class };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
		binding.registerReflectionHints(hints.reflection(), BODIES);
	}

}
