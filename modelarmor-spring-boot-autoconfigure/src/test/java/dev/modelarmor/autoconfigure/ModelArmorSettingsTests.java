package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.ai.document.ModelArmorDocumentOptions;
import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.autoconfigure.ModelArmorSettings.BoundProperties;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.WindowSettings;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ModelArmorSettings} and the settings mappers: each default has one source, the settings type it
 * becomes, and the configuration metadata states that same default; invalid values are refused naming the
 * property, as the application wrote it.
 */
class ModelArmorSettingsTests {

	@Test
	void unconfiguredPropertiesBecomeTheSettingsTypesDefaults() {
		ModelArmorSettings settings = ModelArmorSettings.of(new ModelArmorProperties());
		assertThat(settings.endpoint()).isEqualTo(ModelArmorEndpoint.regional(ModelArmorTemplate.DEFAULT_LOCATION));
		assertThat(settings.timeouts()).isEqualTo(HttpTimeouts.DEFAULTS);
		// The starter's clients draw on a retry budget unless told not to; a client built by hand has none.
		assertThat(settings.retry()).isEqualTo(RetrySettings.DEFAULTS.withBudget(RetryBudgetSettings.DEFAULTS));
		assertThat(settings.windows()).isEqualTo(WindowSettings.DEFAULTS);
	}

	@Test
	void theSettingsCarryEveryAreasMappedValuesForTheBeansToRead() {
		ModelArmorSettings defaults = settings(bind(Map.of()));
		assertThat(defaults.quota()).isEqualTo(QuotaSettings.DEFAULTS);
		assertThat(defaults.circuitBreaker()).isEqualTo(CircuitBreakerSettings.DEFAULTS);
		assertThat(defaults.sanitizeOptions()).isEqualTo(SanitizeOptions.NONE);
		assertThat(defaults.logLinesPerSecond()).isEqualTo(ModelArmorScreening.DEFAULT_LOG_LINES_PER_SECOND);
		assertThat(defaults.unscreenableMedia()).isEqualTo(UnscreenableMedia.BLOCK);
		assertThat(defaults.healthCacheTimeToLive()).isEqualTo(new ModelArmorHealthProperties().getCacheTimeToLive());
		assertThat(defaults.location()).isEqualTo(ModelArmorTemplate.DEFAULT_LOCATION);
		assertThat(defaults.templateId()).isNull();
		assertThat(defaults.retryEnabled()).isTrue();
		ModelArmorSettings configured = settings(bind(Map.of("modelarmor.quota.queries-per-minute", "600",
				"modelarmor.circuit-breaker.wait-in-open-state", "20s",
				"modelarmor.screening.multi-language-detection.source-language", " de ",
				"modelarmor.screening.log-lines-per-second", "7", "modelarmor.screening.unscreenable-media", "allow",
				"modelarmor.health.cache-time-to-live", "3s", "modelarmor.location", "europe-west4",
				"modelarmor.template-id", "strict", "modelarmor.retry.enabled", "false")));
		assertThat(configured.quota().queriesPerMinute()).isEqualTo(600);
		assertThat(configured.circuitBreaker().waitInOpenState()).hasSeconds(20);
		assertThat(configured.sanitizeOptions().sourceLanguage()).isEqualTo("de");
		assertThat(configured.logLinesPerSecond()).isEqualTo(7);
		assertThat(configured.unscreenableMedia()).isEqualTo(UnscreenableMedia.ALLOW);
		assertThat(configured.healthCacheTimeToLive()).hasSeconds(3);
		assertThat(configured.location()).isEqualTo("europe-west4");
		assertThat(configured.templateId()).isEqualTo("strict");
		assertThat(configured.retryEnabled()).isFalse();
	}

	@Test
	void unconfiguredSpringAiPropertiesBecomeTheAdvisorsDefaults() {
		assertThat(SpringAiSettingsMapper.advisor(new ModelArmorSpringAiProperties().getAdvisor()))
			.isEqualTo(ModelArmorAdvisorOptions.DEFAULTS);
		assertThat(SpringAiSettingsMapper.templates(new ModelArmorSpringAiProperties()).byProperty()).isEmpty();
		assertThat(SpringAiSettingsMapper.documents(new ModelArmorSpringAiProperties().getDocuments()))
			.isEqualTo(ModelArmorDocumentOptions.DEFAULTS);
		assertThat(SpringAiSettingsMapper.tools(new ModelArmorSpringAiProperties().getTools()))
			.isEqualTo(ModelArmorToolOptions.DEFAULTS);
	}

	@Test
	void anEnabledBudgetHasTheBudgetDefaults() {
		ModelArmorProperties properties = new ModelArmorProperties();
		properties.getRetry().getBudget().setEnabled(true);
		assertThat(ModelArmorSettings.of(properties).retry().budget()).isEqualTo(RetryBudgetSettings.DEFAULTS);
	}

	@Test
	void noCacheOperationWaitsLongerThanTheRetryDeadline() {
		RetrySettings retry = ModelArmorSettings.of(bind(Map.of("modelarmor.retry.deadline", "2s")).client()).retry();
		ModelArmorCacheProperties cache = new ModelArmorCacheProperties();
		cache.setOperationTimeout(Duration.ofSeconds(3));
		assertThat(CacheSettingsMapper.settings(cache, new ConcurrentMapCache("verdicts"), retry).operationTimeout())
			.hasSeconds(2);
		cache.setOperationTimeout(Duration.ofSeconds(1));
		assertThat(CacheSettingsMapper.settings(cache, new ConcurrentMapCache("verdicts"), retry).operationTimeout())
			.hasSeconds(1);
	}

	@Test
	void theAdvisorDefaultsAreTheAdvisorOptionsConstants() {
		ModelArmorSpringAiProperties.Advisor advisor = new ModelArmorSpringAiProperties().getAdvisor();
		assertThat(advisor.getRefusal()).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		assertThat(advisor.getOrder()).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_ORDER);
		assertThat(new ModelArmorProperties().getLocation()).isEqualTo(ModelArmorTemplate.DEFAULT_LOCATION);
	}

	@Test
	void theMetadataStatesTheDefaultsThatTheProcessorCannotRead() {
		assertThat(metadataDefaults()).hasSize(63)
			.containsEntry("modelarmor.tenant.unknown", "refuse")
			.containsEntry("modelarmor.screening.log-lines-per-second",
					String.valueOf(ModelArmorScreening.DEFAULT_LOG_LINES_PER_SECOND))
			.containsEntry("modelarmor.location", ModelArmorTemplate.DEFAULT_LOCATION)
			.containsEntry("modelarmor.screening.unscreenable-media", "block")
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
		assertThat(bindWithSpringAi(Map.of(name, value))).usingRecursiveComparison()
			.isEqualTo(bindWithSpringAi(Map.of()));
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.retry.max-backoff            | 31s
			modelarmor.screening.window.parallelism | 3
			modelarmor.spring-ai.tools.refusal      | No.
			modelarmor.cache.name                   | verdicts
			modelarmor.health.cache-time-to-live    | 31s
			""")
	void aChangedDefaultIsSeenByTheMetadataComparison(String name, String value) {
		// The comparison above would pass vacuously if binding a default changed nothing it could see.
		assertThat(bindWithSpringAi(Map.of(name, value))).usingRecursiveComparison()
			.isNotEqualTo(bindWithSpringAi(Map.of()));
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.template-id                | '  '
			modelarmor.location                   | US Central
			modelarmor.http.read-timeout          | 0s
			modelarmor.retry.budget.retry-ratio   | 10.5
			modelarmor.retry.budget.window        | 1500ms
			modelarmor.screening.window.size      | 512B
			modelarmor.screening.window.overlap   | 5KB
			modelarmor.screening.window.parallelism | 33
			modelarmor.screening.window.max-windows | 0
			modelarmor.cache.time-to-live         | 0s
			modelarmor.cache.time-to-live         | -1s
			modelarmor.cache.time-to-live         | 25h
			modelarmor.cache.name                 | '  '
			modelarmor.quota.queries-per-minute   | 1
			modelarmor.quota.redis-timeout        | 0s
			modelarmor.quota.fallback-queries-per-minute | 1
			modelarmor.quota.fallback-queries-per-minute | 1201
			modelarmor.circuit-breaker.failure-rate-threshold | 0.0
			modelarmor.circuit-breaker.window-size | 1
			modelarmor.circuit-breaker.wait-in-open-state | 0s
			modelarmor.circuit-breaker.half-open-probes | 0
			modelarmor.circuit-breaker.failing-for | 25h
			""")
	void anInvalidValueIsRefusedNamingThePropertyAndShowingTheValueAsConfigured(String property, String value) {
		BoundProperties properties = bind(Map.of(property, value));
		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> settings(properties))
			.satisfies((ex) -> {
				assertThat(ex.property()).isEqualTo(property);
				assertThat(ex.getMessage()).startsWith(property + ": the value '" + shown(value) + "' ");
				assertThat(ex.action()).isEqualTo("Change " + property + " in your application configuration");
			});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.spring-ai.advisor.template      | '  '
			modelarmor.spring-ai.documents.template    | '  '
			modelarmor.spring-ai.tools.template        | '  '
			modelarmor.spring-ai.advisor.stream-segment | 512B
			""")
	void anInvalidSpringAiValueIsRefusedNamingThePropertyAndShowingTheValueAsConfigured(String property,
			String value) {
		ModelArmorSpringAiProperties properties = bindSpringAi(Map.of(property, value));
		assertThatExceptionOfType(ModelArmorConfigurationException.class).isThrownBy(() -> {
			SpringAiSettingsMapper.templates(properties);
			SpringAiSettingsMapper.advisor(properties.getAdvisor());
		}).satisfies((ex) -> {
			assertThat(ex.property()).isEqualTo(property);
			assertThat(ex.getMessage()).startsWith(property + ": the value '" + shown(value) + "' ");
		});
	}

	@Test
	void anEmptyAdvisorTemplateFallsBackToTheTemplateId() {
		ModelArmorSpringAiProperties properties = bindSpringAi(Map.of("modelarmor.spring-ai.advisor.template", ""));
		assertThat(SpringAiSettingsMapper.advisorTemplate(properties)).isNull();
		assertThat(SpringAiSettingsMapper.templates(properties).byProperty()).isEmpty();
		assertThat(SpringAiSettingsMapper.templates(bindSpringAi(Map.of("modelarmor.spring-ai.tools.template", "strict")))
			.byProperty()).containsExactly(Map.entry("modelarmor.spring-ai.tools.template", "strict"));
	}

	@Test
	void theScreeningPropertiesSetFailOpenAndTheWindows() {
		ModelArmorSettings settings = settings(bind(Map.of("modelarmor.screening.fail-open", "true",
				"modelarmor.screening.window.size", "16KB", "modelarmor.screening.window.overlap", "2KB",
				"modelarmor.screening.window.parallelism", "2", "modelarmor.screening.window.max-windows", "9")));
		assertThat(settings.failOpen()).isTrue();
		assertThat(settings.windows()).isEqualTo(new WindowSettings(16 * 1024, 2 * 1024, 2, 9));
		assertThat(settings(bind(Map.of())).failOpen()).isFalse();
	}

	private static String shown(String value) {
		return switch (value) {
			case "5KB" -> "5120B";
			default -> value;
		};
	}

	/** Every area bound from the given configuration, as the application context binds it. */
	private static BoundProperties bind(Map<String, String> configuration) {
		Binder binder = new Binder(new MapConfigurationPropertySource(configuration));
		return new BoundProperties(binder.bindOrCreate("modelarmor", ModelArmorProperties.class),
				binder.bindOrCreate("modelarmor.screening", ModelArmorScreeningProperties.class),
				binder.bindOrCreate("modelarmor.cache", ModelArmorCacheProperties.class),
				binder.bindOrCreate("modelarmor.health", ModelArmorHealthProperties.class));
	}

	/** The core areas and the Spring AI integration's, which its own auto-configuration binds. */
	private record BoundWithSpringAi(BoundProperties core, ModelArmorSpringAiProperties springAi) {
	}

	private static BoundWithSpringAi bindWithSpringAi(Map<String, String> configuration) {
		return new BoundWithSpringAi(bind(configuration), bindSpringAi(configuration));
	}

	private static ModelArmorSpringAiProperties bindSpringAi(Map<String, String> configuration) {
		return new Binder(new MapConfigurationPropertySource(configuration)).bindOrCreate("modelarmor.spring-ai",
				ModelArmorSpringAiProperties.class);
	}

	private static ModelArmorSettings settings(BoundProperties properties) {
		return ModelArmorSettings.of(properties, HttpClientSettings.defaults(), null);
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
