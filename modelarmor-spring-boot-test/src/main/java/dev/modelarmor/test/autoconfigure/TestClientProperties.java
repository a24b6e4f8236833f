package dev.modelarmor.test.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * The properties a test gives the application's Model Armor client: the stand-in's endpoint and no
 * credentials, which win over the application's own, and a project and template id, which the
 * application's own win over.
 */
final class TestClientProperties {

	/** The project id a test uses when the application names none. */
	static final String DEFAULT_PROJECT_ID = "stand-in-project";

	/** The template id a test uses when the application names none. */
	static final String DEFAULT_TEMPLATE_ID = "stand-in-template";

	private static final String OVERRIDES = "modelArmorTestOverrides";

	private static final String DEFAULTS = "modelArmorTestDefaults";

	/** Where the starter looks for the project id, in its order (see ProjectIdResolver). */
	private static final List<String> PROJECT_ID_PROPERTIES = List.of("modelarmor.project-id",
			"spring.cloud.gcp.project-id", "GOOGLE_CLOUD_PROJECT");

	private TestClientProperties() {
	}

	/**
	 * Points the client at a stand-in: its endpoint, no credentials, and ids where the application has none.
	 * @param environment the application's environment
	 * @param url the stand-in's URL
	 */
	static void pointAt(ConfigurableEnvironment environment, String url) {
		Map<String, Object> overrides = new LinkedHashMap<>();
		overrides.put("modelarmor.endpoint", url);
		overrides.put("modelarmor.credentials.enabled", "false");
		apply(environment, overrides);
	}

	/**
	 * The ids the application left unset and the stand-in's defaults fill in, once {@link #pointAt} ran.
	 * @param environment the application's environment
	 * @return e.g. {@code modelarmor.project-id=stand-in-project}, in the order project, template
	 */
	static List<String> defaultsInUse(ConfigurableEnvironment environment) {
		if (!(environment.getPropertySources().get(DEFAULTS) instanceof MapPropertySource defaults)) {
			return List.of();
		}
		return defaults.getSource().entrySet().stream()
			.filter((entry) -> !anyOtherSourceHas(environment, entry.getKey()))
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.sorted()
			.toList();
	}

	private static boolean anyOtherSourceHas(ConfigurableEnvironment environment, String name) {
		for (PropertySource<?> source : environment.getPropertySources()) {
			// the attached source holds every other source's properties, the stand-in's defaults too
			if (!source.getName().equals(DEFAULTS) && !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)
					&& source.containsProperty(name)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Prepares a context whose client a test replaces (a mock): the auto-configured client's credentials
	 * are never used, so none are loaded, and ids where the application has none, which the guard's startup
	 * checks need.
	 * @param environment the application's environment
	 */
	static void replacedClient(ConfigurableEnvironment environment) {
		apply(environment, Map.of("modelarmor.credentials.enabled", "false"));
	}

	private static void apply(ConfigurableEnvironment environment, Map<String, Object> overrides) {
		MutablePropertySources sources = environment.getPropertySources();
		Map<String, Object> merged = new LinkedHashMap<>();
		if (sources.get(OVERRIDES) instanceof MapPropertySource existing) {
			merged.putAll(existing.getSource());
		}
		merged.putAll(overrides);
		put(sources, new MapPropertySource(OVERRIDES, merged), true);
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("modelarmor.template-id", DEFAULT_TEMPLATE_ID);
		if (PROJECT_ID_PROPERTIES.stream().noneMatch((name) -> hasText(environment.getProperty(name)))) {
			defaults.put("modelarmor.project-id", DEFAULT_PROJECT_ID);
		}
		put(sources, new MapPropertySource(DEFAULTS, defaults), false);
	}

	private static void put(MutablePropertySources sources, PropertySource<?> source, boolean first) {
		if (sources.contains(source.getName())) {
			sources.replace(source.getName(), source);
		}
		else if (first) {
			sources.addFirst(source);
		}
		else {
			sources.addLast(source);
		}
	}

	private static boolean hasText(@Nullable String value) {
		return value != null && !value.isBlank();
	}

}
