package dev.modelarmor.screening.cache;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Reflection hints for what a verdict cache stores ({@link CachedVerdict}), so that a cache that writes JSON
 * works in a native image. Registered in {@code META-INF/spring/aot.factories}.
 */
final class VerdictCacheHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		// Java serialization hints are deprecated for removal in Spring Framework 7: in a native image, give
		// the cache a JSON serializer.
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), CachedVerdict.class);
	}

}
