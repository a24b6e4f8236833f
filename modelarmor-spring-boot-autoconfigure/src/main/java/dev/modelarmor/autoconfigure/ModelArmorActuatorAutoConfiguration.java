package dev.modelarmor.autoconfigure;

import java.util.Locale;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that keeps the verdict cache's signing keys out of the actuator's
 * {@code configprops} and {@code env} endpoints, even with {@code show-values=always}: whoever holds the
 * key can forge a verdict in a shared cache.
 */
@AutoConfiguration
@ConditionalOnClass(SanitizingFunction.class)
public final class ModelArmorActuatorAutoConfiguration {

	/** The keys, as configprops names them (bean properties) and as env names them (kebab case). */
	private static final Set<String> SIGNING_KEYS = Set.of("modelarmor.cache.signingkey",
			"modelarmor.cache.signing-key", "modelarmor.cache.previoussigningkeys",
			"modelarmor.cache.previous-signing-keys");

	@Bean
	SanitizingFunction modelArmorSigningKeySanitizer() {
		return ModelArmorActuatorAutoConfiguration::sanitize;
	}

	static SanitizableData sanitize(SanitizableData data) {
		String key = data.getKey().toLowerCase(Locale.ROOT);
		int index = key.indexOf('[');
		// a list's elements come as previous-signing-keys[0]
		String property = (index >= 0) ? key.substring(0, index) : key;
		return SIGNING_KEYS.contains(property) ? data.withValue(SanitizableData.SANITIZED_VALUE) : data;
	}

}
