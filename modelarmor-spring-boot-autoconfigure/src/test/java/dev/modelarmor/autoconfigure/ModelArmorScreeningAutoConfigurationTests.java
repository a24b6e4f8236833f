package dev.modelarmor.autoconfigure;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTaskExecutor;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.WindowSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@link ModelArmorScreening} bean (imported by every auto-configuration that screens, here the guard's): built over the client with the {@code modelarmor.screening.window.*}
 * properties, validated at startup; and the {@link ModelArmorTaskExecutor} its windows run on, bounded,
 * replaceable, closed with the context, and no stand-in for the application's own executor.
 */
class ModelArmorScreeningAutoConfigurationTests {

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.template-id=default-template",
				"modelarmor.credentials.enabled=false", "modelarmor.retry.enabled=false");

	private ApplicationContextRunner againstWireMock() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		return this.runner.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl());
	}

	@Test
	void theDefaultsAreWindowSettingsDefaults() {
		assertThat(ModelArmorSettings.of(new ModelArmorProperties()).windows()).isEqualTo(WindowSettings.DEFAULTS);
		this.runner.run((context) -> assertThat(context).hasSingleBean(ModelArmorScreening.class)
			.hasBean("modelArmorScreening")
			.hasSingleBean(ModelArmorTaskExecutor.class)
			.hasBean("modelArmorTaskExecutor"));
	}

	@Test
	void thePropertiesShapeTheWindows() {
		againstWireMock()
			.withPropertyValues("modelarmor.screening.window.size=2KB", "modelarmor.screening.window.overlap=0B",
					"modelarmor.screening.window.max-windows=3")
			.run((context) -> {
				ModelArmorScreening screening = context.getBean(ModelArmorScreening.class);
				assertThat(screening.screen(prompt("x".repeat(6 * 1024)))).isSameAs(ScreeningDecision.PASS);
				assertThat(modelArmor.findAll(postRequestedFor(urlPathMatching(".*")))).hasSize(3)
					.allSatisfy((request) -> assertThat(request.getBodyAsString()).contains("x".repeat(2048))
						.doesNotContain("x".repeat(2049)));
				assertThat(screening.screen(prompt("x".repeat(6 * 1024 + 1)))).isInstanceOfSatisfying(Rejected.class,
						(rejected) -> assertThat(rejected.cause()).isInstanceOf(ModelArmorInputTooLargeException.class)
							.hasMessageContaining("modelarmor.screening.window.max-windows"));
			});
	}

	@Test
	void closingTheContextEndsTheWindowThreads() {
		ModelArmorScreening[] screening = new ModelArmorScreening[1];
		againstWireMock().run((context) -> screening[0] = context.getBean(ModelArmorScreening.class));
		assertThat(screening[0].executor().isClosed()).isTrue();
		assertThat(screening[0].screen(prompt("x ".repeat(10_000)))).isInstanceOfSatisfying(NotScreened.class,
				(notScreened) -> assertThat(notScreened.cause()).isInstanceOf(ModelArmorException.class)
					.hasMessageContaining("closed"));
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwn() {
		this.runner.withUserConfiguration(OwnScreening.class).run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorScreening.class).hasBean("myScreening");
			assertThat(context).doesNotHaveBean("modelArmorScreening");
		});
	}

	@Test
	void screensOverTheApplicationsOwnOperations() {
		ModelArmorOperations own = Mockito.mock(ModelArmorOperations.class);
		SanitizationResult clean = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS,
				Map.of(), null);
		Mockito.when(own.sanitizeUserPrompt("Hello")).thenReturn(clean);
		this.runner.withBean("myOperations", ModelArmorOperations.class, () -> own).run((context) -> {
			assertThat(context.getBean(ModelArmorScreening.class).screen(prompt("Hello"))).isSameAs(ScreeningDecision.PASS);
			Mockito.verify(own).sanitizeUserPrompt("Hello");
		});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.screening.window.size        | 512B
			modelarmor.screening.window.size        | 5MB
			modelarmor.screening.window.size        | 10GB
			modelarmor.screening.window.overlap     | -1B
			modelarmor.screening.window.overlap     | 5KB
			modelarmor.screening.window.parallelism | 0
			modelarmor.screening.window.parallelism | 33
			modelarmor.screening.window.max-windows | 0
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
		ModelArmorScreening myScreening(ConfigurableApplicationContext context) {
			return ModelArmorScreening.builder(Mockito.mock(ModelArmorOperations.class)).build();
		}

	}

	@Test
	void theApplicationsOwnExecutorReplacesTheStartersAndIsUsed() {
		ModelArmorTaskExecutor own = ModelArmorTaskExecutor.platformThreads("own", 2, 0, null);
		againstWireMock().withBean("myExecutor", ModelArmorTaskExecutor.class, () -> own).run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorTaskExecutor.class).doesNotHaveBean("modelArmorTaskExecutor");
			assertThat(context.getBean(ModelArmorScreening.class).executor()).isSameAs(own);
		});
		own.close();
	}

	@Test
	void theStartersExecutorLeavesSpringBootsApplicationTaskExecutorInPlace() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
			.run((context) -> assertThat(context).hasBean("applicationTaskExecutor")
				.hasSingleBean(ModelArmorTaskExecutor.class));
	}

	@Test
	void theStartersExecutorRunsTasksThroughTheApplicationsTaskDecorator() {
		AtomicReference<String> decorated = new AtomicReference<>();
		TaskDecorator decorator = (task) -> () -> {
			decorated.set(Thread.currentThread().getName());
			task.run();
		};
		this.runner.withBean(TaskDecorator.class, () -> decorator).run((context) -> {
			CompletableFuture<Void> ran = new CompletableFuture<>();
			context.getBean(ModelArmorTaskExecutor.class).execute(() -> ran.complete(null));
			ran.join();
			assertThat(decorated.get()).startsWith("modelarmor-");
		});
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void withVirtualThreadsEnabledTheExecutorsThreadsAreVirtual() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			CompletableFuture<Thread> thread = new CompletableFuture<>();
			context.getBean(ModelArmorTaskExecutor.class).execute(() -> thread.complete(Thread.currentThread()));
			assertThat(thread.join().getName()).startsWith("modelarmor-");
			assertThat((boolean) Thread.class.getMethod("isVirtual").invoke(thread.join())).isTrue();
		});
	}

	private static ScreeningRequest prompt(String text) {
		return ScreeningRequest.prompt("ModelArmorScreeningAutoConfigurationTests", text);
	}

}
