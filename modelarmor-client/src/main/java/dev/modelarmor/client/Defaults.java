package dev.modelarmor.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Normalization shared by the result records: Jackson passes {@code null} for an absent field,
 * and the API leaves out empty collections.
 */
final class Defaults {

	private Defaults() {
	}

	static <T> List<T> list(@Nullable List<T> list) {
		return (list != null) ? List.copyOf(list) : List.of();
	}

	// Map.copyOf would lose the API's order, which matchedFilters() keeps.
	static <V> Map<String, V> map(@Nullable Map<String, V> map) {
		return (map != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map)) : Map.of();
	}

}
