package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.modelarmor.ai.ModelArmorAdvisorOptions;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.ScreeningWindows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link ModelArmorSettings}: each default has one source, the settings type it becomes, and the
 * configuration metadata states that same default; invalid values are refused naming the property.
 */
class ModelArmorSettingsTests {

	@Test
	void unconfiguredPropertiesBecomeTheSettingsTypesDefaults() {
		ModelArmorSettings settings = ModelArmorSettings.of(new ModelArmorProperties());
		assertThat(settings.endpoint()).isEqualTo(ModelArmorEndpoint.regional(ModelArmorTemplate.DEFAULT_LOCATION));
		assertThat(settings.timeouts()).isEqualTo(HttpTimeouts.DEFAULTS);
		assertThat(settings.retry()).isEqualTo(RetrySettings.DEFAULTS);
		assertThat(settings.windows()).isEqualTo(ScreeningWindows.DEFAULTS);
		assertThat(settings.advisor()).isEqualTo(ModelArmorAdvisorOptions.DEFAULTS);
	}

	@Test
	void anEnabledBudgetHasTheBudgetDefaults() {
		ModelArmorProperties properties = new ModelArmorProperties();
		properties.getRetry().getBudget().setEnabled(true);
		assertThat(ModelArmorSettings.of(properties).retry().budget()).isEqualTo(RetryBudgetSettings.DEFAULTS);
	}

	@Test
	void theAdvisorDefaultsAreTheAdvisorOptionsConstants() {
		ModelArmorProperties.SpringAi.Advisor advisor = new ModelArmorProperties().getSpringAi().getAdvisor();
		assertThat(advisor.getRefusal()).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		assertThat(advisor.getOrder()).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_ORDER);
		assertThat(new ModelArmorProperties().getLocation()).isEqualTo(ModelArmorTemplate.DEFAULT_LOCATION);
	}

	@Test
	void theMetadataStatesTheDefaultsThatTheProcessorCannotRead() {
		assertThat(metadataDefaults()).hasSize(51)
			.containsEntry("modelarmor.location", ModelArmorTemplate.DEFAULT_LOCATION)
			.containsEntry("modelarmor.spring-ai.advisor.refusal", ModelArmorAdvisorOptions.DEFAULT_REFUSAL)
			.containsEntry("modelarmor.spring-ai.advisor.order", String.valueOf(ModelArmorAdvisorOptions.DEFAULT_ORDER));
	}

	/**
	 * A default in the metadata, bound as an application's configuration would be, gives the same
	 * properties as no configuration at all: the metadata's defaults (the configuration processor's and
	 * those written in additional-spring-configuration-metadata.json) are the code's.
	 * @param name the property
	 * @param value its default in the metadata
	 */
	@ParameterizedTest(name = "{0}={1}")
	@MethodSource("metadataDefaultValues")
	void theMetadataDefaultIsTheCodesDefault(String name, String value) {
		ModelArmorProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(name, value)))
			.bindOrCreate("modelarmor", Bindable.of(ModelArmorProperties.class));
		assertThat(bound).usingRecursiveComparison().isEqualTo(new ModelArmorProperties());
	}

	@Test
	void aChangedDefaultIsSeenByTheMetadataComparison() {
		// The comparison above would pass vacuously if binding a default changed nothing it could see.
		ModelArmorProperties bound = new Binder(
				new MapConfigurationPropertySource(Map.of("modelarmor.retry.max-backoff", "31s")))
			.bindOrCreate("modelarmor", Bindable.of(ModelArmorProperties.class));
		assertThat(bound).usingRecursiveComparison().isNotEqualTo(new ModelArmorProperties());
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.template-id                | '  '
			modelarmor.spring-ai.advisor.template | '  '
			modelarmor.location                   | US Central
			modelarmor.http.read-timeout          | 0s
			modelarmor.retry.budget.token-ratio   | 1.5
			modelarmor.guard.window.overlap       | 5KB
			modelarmor.guard.window.parallelism   | 33
			modelarmor.spring-ai.advisor.stream-window | 512B
			modelarmor.cache.time-to-live         | 0s
			modelarmor.cache.time-to-live         | -1s
			modelarmor.cache.time-to-live         | 25h
			modelarmor.cache.name                 | '  '
			modelarmor.quota.queries-per-minute   | 1
			modelarmor.quota.redis-timeout        | 0s
			modelarmor.circuit-breaker.failure-rate-threshold | 0.0
			modelarmor.circuit-breaker.window-size | 1
			modelarmor.circuit-breaker.wait-in-open-state | 0s
			modelarmor.circuit-breaker.half-open-probes | 0
			""")
	void anInvalidValueIsRefusedNamingThePropertyAndShowingTheValueAsConfigured(String property, String value) {
		ModelArmorProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(property, value)))
			.bindOrCreate("modelarmor", Bindable.of(ModelArmorProperties.class));
		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> ModelArmorSettings.of(properties))
			.satisfies((ex) -> {
				assertThat(ex.property()).isEqualTo(property);
				assertThat(ex.getMessage()).startsWith(property + ": the value '" + shown(value) + "' ");
				assertThat(ex.action()).isEqualTo("Change " + property + " in your application configuration");
			});
	}

	@Test
	void anEmptyAdvisorTemplateFallsBackToTheTemplateId() {
		ModelArmorProperties properties = new ModelArmorProperties();
		properties.getSpringAi().getAdvisor().setTemplate("");
		assertThatNoException().isThrownBy(() -> ModelArmorSettings.of(properties));
	}

	private static String shown(String value) {
		return switch (value) {
			case "0s" -> "0ms";
			case "5KB" -> "5120B";
			case "-1s" -> "-1000ms";
			case "25h" -> "90000000ms";
			default -> value;
		};
	}

	static Stream<Arguments> metadataDefaultValues() {
		return metadataDefaults().entrySet().stream().map((entry) -> Arguments.of(entry.getKey(), entry.getValue()));
	}

	private static Map<String, String> metadataDefaults() {
		try (InputStream metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			Map<String, String> defaults = new TreeMap<>();
			for (JsonNode property : JsonMapper.shared().readTree(metadata).path("properties")) {
				String name = property.path("name").asString();
				if (name.startsWith("modelarmor.") && property.has("defaultValue")) {
					defaults.put(name, property.path("defaultValue").asString());
				}
			}
			return defaults;
		}
		catch (IOException ex) {
			throw new IllegalStateException("configuration metadata was not generated", ex);
		}
	}

}
