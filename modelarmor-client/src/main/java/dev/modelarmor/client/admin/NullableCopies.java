package dev.modelarmor.client.admin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Copies for the management records, where {@code null} means "not given" and must stay
 * {@code null}, unlike the sanitize results, where it becomes an empty collection.
 */
final class NullableCopies {

	private NullableCopies() {
	}

	static <T> @Nullable List<T> list(@Nullable List<T> list) {
		return (list != null) ? List.copyOf(list) : null;
	}

	// Map.copyOf would lose the order, and with it a predictable JSON.
	static <V> @Nullable Map<String, V> map(@Nullable Map<String, V> map) {
		return (map != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map)) : null;
	}

}
