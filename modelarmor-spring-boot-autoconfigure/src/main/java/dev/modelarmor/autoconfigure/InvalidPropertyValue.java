package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * A property whose value the starter refuses. Made where the bound value is refused, it shows that value;
 * {@link #asConfigured} then shows it as the application wrote it ({@code -1s}, not the {@code -1000ms} of
 * the bound {@code Duration}) and names where it was set as Spring Boot names an origin (a file and its
 * line, the command line, an environment variable).
 */
final class InvalidPropertyValue extends ModelArmorConfigurationException {

	private final String reason;

	/**
	 * A refused value, as bound.
	 * @param property the property's name
	 * @param value the bound value
	 * @param reason why it is refused, e.g. {@code must be positive}
	 */
	InvalidPropertyValue(String property, @Nullable Object value, @Nullable String reason) {
		this(property, shown(value), String.valueOf(reason), null);
	}

	private InvalidPropertyValue(String property, String value, String reason, @Nullable Origin origin) {
		super(property, "the value '" + value + "' " + reason, (origin != null)
				? "Change " + property + " where it is set: " + origin
				: "Change " + property + " in your application configuration");
		this.reason = reason;
	}

	/**
	 * The problems with each refused value shown as the environment has it and named by its origin;
	 * other problems, and values the environment does not have, as they are.
	 * @param problems the problems found
	 * @param environment the application's environment
	 * @return the problems, in the same order
	 */
	static List<ModelArmorConfigurationException> asConfigured(List<ModelArmorConfigurationException> problems,
			Environment environment) {
		if (!(environment instanceof ConfigurableEnvironment)) {
			return problems;
		}
		Iterable<ConfigurationPropertySource> sources = ConfigurationPropertySources.get(environment);
		return problems.stream().map((problem) -> (problem instanceof InvalidPropertyValue invalid)
				? invalid.asConfigured(sources, environment) : problem).toList();
	}

	private ModelArmorConfigurationException asConfigured(Iterable<ConfigurationPropertySource> sources,
			Environment environment) {
		if (!ConfigurationPropertyName.isValid(property())) {
			return this;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.of(property());
		for (ConfigurationPropertySource source : sources) {
			ConfigurationProperty configured = source.getConfigurationProperty(name);
			if (configured != null) {
				Object value = configured.getValue();
				String written = (value instanceof String text) ? environment.resolvePlaceholders(text)
						: String.valueOf(value);
				InvalidPropertyValue described = new InvalidPropertyValue(property(), written, this.reason,
						configured.getOrigin());
				described.setStackTrace(getStackTrace());
				return described;
			}
		}
		return this;
	}

	/** A duration in the largest unit that shows it exactly, as a property would set it. */
	private static String shown(@Nullable Object value) {
		if (!(value instanceof Duration duration)) {
			return String.valueOf(value);
		}
		long nanos;
		try {
			nanos = duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return duration.toString();
		}
		String[] units = { "d", "h", "m", "s", "ms", "us" };
		long[] sizes = { 86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L };
		for (int i = 0; i < units.length; i++) {
			if (nanos != 0 && nanos % sizes[i] == 0) {
				return (nanos / sizes[i]) + units[i];
			}
		}
		return (nanos == 0) ? "0s" : nanos + "ns";
	}

}
