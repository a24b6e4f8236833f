package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint.ConfigurationPropertiesBeanDescriptor;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelArmorActuatorAutoConfiguration}: with {@code show-values=always}, the configprops endpoint
 * shows the cache's properties but never its signing keys, current or previous.
 */
class ModelArmorActuatorAutoConfigurationTests {

	private static final String KEY = "c2lnbmluZy1rZXktb2YtdGhlLWZsZWV0LWZvci10ZXN0cy0wMTIzNDU2Nzg5";

	private static final String OLD_KEY = "b2xkLXNpZ25pbmcta2V5LW9mLXRoZS1mbGVldC1mb3ItdGVzdHMtMDEyMzQ1Njc=";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorActuatorAutoConfiguration.class))
		.withUserConfiguration(ConfigPropsEndpoint.class)
		.withPropertyValues("modelarmor.cache.signing-key=" + KEY,
				"modelarmor.cache.previous-signing-keys=" + OLD_KEY + "," + KEY, "modelarmor.cache.time-to-live=7m");

	@Test
	void theSigningKeysShowAsStarsAndTheOtherPropertiesAsThemselves() {
		this.runner.run((context) -> {
			ConfigurationPropertiesBeanDescriptor cache = context.getBean(ConfigurationPropertiesReportEndpoint.class)
				.configurationPropertiesWithPrefix("modelarmor.cache")
				.getContexts()
				.values()
				.iterator()
				.next()
				.getBeans()
				.values()
				.stream()
				.filter((bean) -> bean.getPrefix().equals("modelarmor.cache"))
				.findFirst()
				.orElseThrow();
			assertThat(cache.getProperties()).containsEntry("signingKey", "******")
				.containsEntry("previousSigningKeys", List.of("******", "******"))
				.containsKey("timeToLive");
			assertThat(String.valueOf(cache.getProperties().get("timeToLive"))).isNotEqualTo("******");
			List<Object> everything = new ArrayList<>();
			leaves(cache.getProperties(), everything);
			leaves(cache.getInputs(), everything);
			assertThat(everything).isNotEmpty()
				.noneSatisfy((value) -> assertThat(String.valueOf(value)).contains(KEY))
				.noneSatisfy((value) -> assertThat(String.valueOf(value)).contains(OLD_KEY));
		});
	}

	private static void leaves(Object value, List<Object> into) {
		if (value instanceof Map<?, ?> map) {
			map.values().forEach((each) -> leaves(each, into));
		}
		else if (value instanceof List<?> list) {
			list.forEach((each) -> leaves(each, into));
		}
		else {
			into.add(value);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ModelArmorCacheProperties.class)
	static class ConfigPropsEndpoint {

		/** As Spring Boot's configprops auto-configuration makes it. */
		@Bean
		ConfigurationPropertiesReportEndpoint configurationPropertiesReportEndpoint(
				ObjectProvider<SanitizingFunction> sanitizingFunctions) {
			return new ConfigurationPropertiesReportEndpoint(sanitizingFunctions.orderedStream().toList(), Show.ALWAYS);
		}

	}

}
