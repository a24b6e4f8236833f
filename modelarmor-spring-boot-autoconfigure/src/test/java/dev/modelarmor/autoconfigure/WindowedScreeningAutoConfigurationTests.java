package dev.modelarmor.autoconfigure;

import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.ScreeningWindows;
import dev.modelarmor.client.WindowedScreening;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@link WindowedScreening} bean: built over the client with the {@code modelarmor.guard.window.*}
 * properties, validated at startup, closed with the context.
 */
class WindowedScreeningAutoConfigurationTests {

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.template-id=default-template",
				"modelarmor.credentials.enabled=false", "modelarmor.retry.enabled=false");

	private ApplicationContextRunner againstWireMock() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		return this.runner.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl());
	}

	@Test
	void theDefaultsAreScreeningWindowsDefaults() {
		assertThat(ModelArmorSettings.of(new ModelArmorProperties()).windows()).isEqualTo(ScreeningWindows.DEFAULTS);
		this.runner.run((context) -> assertThat(context).hasSingleBean(WindowedScreening.class)
			.hasBean("modelArmorWindowedScreening"));
	}

	@Test
	void thePropertiesShapeTheWindows() {
		againstWireMock()
			.withPropertyValues("modelarmor.guard.window.size=2KB", "modelarmor.guard.window.overlap=0B",
					"modelarmor.guard.window.max-windows=3")
			.run((context) -> {
				WindowedScreening screening = context.getBean(WindowedScreening.class);
				assertThat(screening.sanitizeUserPrompt("x".repeat(6 * 1024)).matchFound()).isFalse();
				assertThat(modelArmor.findAll(postRequestedFor(urlPathMatching(".*")))).hasSize(3)
					.allSatisfy((request) -> assertThat(request.getBodyAsString()).contains("x".repeat(2048))
						.doesNotContain("x".repeat(2049)));
				assertThatExceptionOfType(ModelArmorInputTooLargeException.class)
					.isThrownBy(() -> screening.sanitizeUserPrompt("x".repeat(6 * 1024 + 1)))
					.withMessageContaining("modelarmor.guard.window.max-windows");
			});
	}

	@Test
	void closingTheContextEndsTheWindowThreads() {
		WindowedScreening[] screening = new WindowedScreening[1];
		againstWireMock().run((context) -> screening[0] = context.getBean(WindowedScreening.class));
		assertThatExceptionOfType(ModelArmorException.class)
			.isThrownBy(() -> screening[0].sanitizeUserPrompt("x ".repeat(10_000)))
			.withMessageContaining("closed");
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwn() {
		this.runner.withUserConfiguration(OwnScreening.class).run((context) -> {
			assertThat(context).hasSingleBean(WindowedScreening.class).hasBean("myScreening");
			assertThat(context).doesNotHaveBean("modelArmorWindowedScreening");
		});
	}

	@Test
	void screensOverTheApplicationsOwnOperations() {
		ModelArmorOperations own = Mockito.mock(ModelArmorOperations.class);
		SanitizationResult clean = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of(), null);
		Mockito.when(own.sanitizeUserPrompt("Hello")).thenReturn(clean);
		this.runner.withBean("myOperations", ModelArmorOperations.class, () -> own).run((context) -> {
			assertThat(context.getBean(WindowedScreening.class).sanitizeUserPrompt("Hello")).isSameAs(clean);
			Mockito.verify(own).sanitizeUserPrompt("Hello");
		});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.guard.window.size        | 512B
			modelarmor.guard.window.size        | 5MB
			modelarmor.guard.window.size        | 10GB
			modelarmor.guard.window.overlap     | -1B
			modelarmor.guard.window.overlap     | 5KB
			modelarmor.guard.window.parallelism | 0
			modelarmor.guard.window.parallelism | 33
			modelarmor.guard.window.max-windows | 0
			""")
	void invalidWindowPropertiesFailStartupNamingTheProperty(String property, String value) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith(property + ": the value ")
				.hasMessageContaining("Change " + property)
				.satisfies((ex) -> assertThat(((ModelArmorConfigurationException) ex).property()).isEqualTo(property));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnScreening {

		@Bean
		WindowedScreening myScreening(ConfigurableApplicationContext context) {
			return new WindowedScreening(Mockito.mock(ModelArmorOperations.class), ScreeningWindows.DEFAULTS);
		}

	}

}
