package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Finds the {@code modelarmor.*} keys of an environment that no property of the starter has: a misspelt key
 * is otherwise ignored without a word, and in a security component that silently leaves a setting at its
 * default (fail-open off, a 60 s deadline). The known names are those of every configuration metadata file
 * on the class path ({@code META-INF/spring-configuration-metadata.json}), so the starter's own properties
 * and the test kit's are known without a list kept by hand. Keys are compared in
 * Spring Boot's relaxed form (case, dashes and underscores ignored), so {@code MODELARMOR_RETRY_DEADLINE}
 * and {@code modelarmor.retry.deadline} are the same key.
 */
final class UnknownProperties {

	static final String METADATA = "META-INF/spring-configuration-metadata.json";

	/** The property that says what an unknown key does. */
	static final String ACTION_PROPERTY = "modelarmor.unknown-properties";

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("modelarmor");

	/** A key is suggested only when at most this share of its characters differ from it. */
	private static final double MOST_DIFFERENT = 1.0 / 3;

	/** The known names, canonical, by their relaxed form. */
	private final Map<String, String> known;

	/** The names of map properties, by their relaxed form: any key below one is known. */
	private final Map<String, String> maps;

	private UnknownProperties(Map<String, String> known, Map<String, String> maps) {
		this.known = known;
		this.maps = maps;
	}

	/**
	 * The {@code modelarmor.*} properties of every metadata file the class loader sees.
	 * @param classLoader where to look
	 * @return the finder
	 */
	static UnknownProperties fromMetadata(@Nullable ClassLoader classLoader) {
		Map<String, String> known = new LinkedHashMap<>();
		Map<String, String> maps = new LinkedHashMap<>();
		for (JsonNode property : properties(classLoader)) {
			String name = property.path("name").asString("");
			if (name.startsWith("modelarmor.")) {
				known.put(relaxed(name), name);
				if (property.path("type").asString("").startsWith("java.util.Map<")) {
					maps.put(relaxed(name), name);
				}
			}
		}
		return new UnknownProperties(known, maps);
	}

	/**
	 * Known names given directly, e.g. in tests.
	 * @param names canonical property names
	 * @param mapNames the names among them that are maps
	 * @return the finder
	 */
	static UnknownProperties of(Set<String> names, Set<String> mapNames) {
		Map<String, String> known = new LinkedHashMap<>();
		names.forEach((name) -> known.put(relaxed(name), name));
		Map<String, String> maps = new LinkedHashMap<>();
		mapNames.forEach((name) -> maps.put(relaxed(name), name));
		return new UnknownProperties(known, maps);
	}

	/**
	 * The unknown {@code modelarmor.*} keys of an environment, each once (in the first source that has it),
	 * in the order of the sources.
	 * @param environment the application's environment
	 * @return the unknown keys, with the nearest known name and where each was set
	 */
	List<Unknown> find(Environment environment) {
		Map<String, Unknown> unknown = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.stream().filter(ROOT::isAncestorOf).forEach((name) -> {
				String relaxed = relaxed(name.toString());
				if (!isKnown(relaxed) && !unknown.containsKey(relaxed)) {
					ConfigurationProperty property = iterable.getConfigurationProperty(name);
					Origin origin = (property != null) ? property.getOrigin() : null;
					if (origin == null || !bindsToAKnownProperty(iterable, origin)) {
						unknown.put(relaxed, new Unknown(name.toString(), nearest(name.toString()),
								(origin != null) ? origin.toString() : null));
					}
				}
			});
		}
		return List.copyOf(unknown.values());
	}

	/**
	 * Whether a key that reads as no property's name still binds to one: an environment variable such as
	 * {@code MODELARMOR_HTTP_READ_TIMEOUT} lists as {@code modelarmor.http.read.timeout}, yet Spring Boot
	 * binds it to {@code modelarmor.http.read-timeout} (the underscore may stand for a dash).
	 */
	private boolean bindsToAKnownProperty(ConfigurationPropertySource source, Origin origin) {
		String where = origin.toString();
		for (String name : this.known.values()) {
			ConfigurationProperty property = ConfigurationPropertyName.isValid(name)
					? source.getConfigurationProperty(ConfigurationPropertyName.of(name)) : null;
			if (property != null && property.getOrigin() != null
					&& where.equals(String.valueOf(property.getOrigin()))) {
				return true;
			}
		}
		return false;
	}

	private boolean isKnown(String relaxed) {
		if (this.known.containsKey(relaxed)) {
			return true;
		}
		for (String map : this.maps.keySet()) {
			if (relaxed.startsWith(map + ".") || relaxed.startsWith(map + "[")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The known name nearest to a key. A key whose last part is a property's last part is most likely that
	 * property in the wrong group, so the nearest name that ends in the same part comes first, however far
	 * ({@code modelarmor.deadline} → {@code modelarmor.retry.deadline}; {@code modelarmor.guard.fail-open} →
	 * {@code modelarmor.screening.fail-open}, not the fewer edits away {@code modelarmor.guard.enabled}); else
	 * the name fewest edits away, when few enough of the key's characters differ; else none.
	 */
	private @Nullable String nearest(String key) {
		String relaxedKey = relaxed(key);
		String lastPart = "." + relaxedKey.substring(relaxedKey.lastIndexOf('.') + 1);
		Map.Entry<String, Integer> sameLastPart = nearest(relaxedKey, (name) -> name.endsWith(lastPart));
		if (sameLastPart != null) {
			return sameLastPart.getKey();
		}
		Map.Entry<String, Integer> any = nearest(relaxedKey, (name) -> true);
		int mostEdits = Math.max(1, (int) (relaxedKey.length() * MOST_DIFFERENT));
		return (any != null && any.getValue() <= mostEdits) ? any.getKey() : null;
	}

	/**
	 * The known name fewest edits away among those the filter keeps, with its distance; on a tie, the first
	 * by name.
	 */
	private Map.@Nullable Entry<String, Integer> nearest(String relaxedKey, Predicate<String> filter) {
		Map.Entry<String, Integer> best = null;
		for (Map.Entry<String, String> candidate : new TreeMap<>(this.known).entrySet()) {
			if (filter.test(candidate.getKey())) {
				int distance = distance(relaxedKey, candidate.getKey());
				if (best == null || distance < best.getValue()) {
					best = Map.entry(candidate.getValue(), distance);
				}
			}
		}
		return best;
	}

	/** Spring Boot's relaxed form of a name: lower case, without dashes and underscores. */
	static String relaxed(String name) {
		return name.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
	}

	/** The Levenshtein distance of two names. */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	private static List<JsonNode> properties(@Nullable ClassLoader classLoader) {
		List<JsonNode> properties = new ArrayList<>();
		try {
			ClassLoader loader = (classLoader != null) ? classLoader : UnknownProperties.class.getClassLoader();
			Enumeration<URL> files = (loader != null) ? loader.getResources(METADATA) : Collections.emptyEnumeration();
			for (URL file : Collections.list(files)) {
				try (InputStream in = file.openStream()) {
					JsonMapper.shared().readTree(in).path("properties").forEach(properties::add);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The configuration metadata could not be read", ex);
		}
		return properties;
	}

	/**
	 * A {@code modelarmor.*} key that no property has.
	 *
	 * @param key the key as the environment has it
	 * @param suggestion the nearest known property, or {@code null}
	 * @param origin where it was set (file and line, when known), or {@code null}
	 */
	record Unknown(String key, @Nullable String suggestion, @Nullable String origin) {

		/**
		 * One line for the startup report.
		 * @return e.g. {@code modelarmor.screening.fail-opne (class path resource [application.properties] - 3:1)
		 * is not a property of the Model Armor starter; did you mean modelarmor.screening.fail-open?}
		 */
		String describe() {
			String where = (this.origin != null) ? " (" + this.origin + ")" : "";
			String hint = (this.suggestion != null) ? "; did you mean " + this.suggestion + "?" : "";
			return this.key + where + " is not a property of the Model Armor starter" + hint;
		}

		/**
		 * The line of the startup report, and what to do about it.
		 * @return the problem, named by the key
		 */
		ModelArmorConfigurationException problem() {
			String where = (this.origin != null) ? " (" + this.origin + ")" : "";
			String hint = (this.suggestion != null) ? "; did you mean " + this.suggestion + "?" : "";
			String fix = (this.suggestion != null) ? "Rename " + this.key + " to " + this.suggestion + ", or remove it"
					: "Remove " + this.key + ", or use a property of docs/properties.md";
			return new ModelArmorConfigurationException(this.key,
					"is not a property of the Model Armor starter" + where + hint,
					fix + " (" + ACTION_PROPERTY + "=warn starts anyway)");
		}

		/**
		 * The WARN line when unknown keys do not stop the start; names the key, never its value.
		 * @return the line
		 */
		String warning() {
			return "Model Armor property is unknown and ignored: property=" + this.key
					+ ((this.origin != null) ? " origin=\"" + this.origin.replace('"', '\'') + "\"" : "")
					+ ((this.suggestion != null) ? " suggestion=" + this.suggestion : "");
		}

	}

}
