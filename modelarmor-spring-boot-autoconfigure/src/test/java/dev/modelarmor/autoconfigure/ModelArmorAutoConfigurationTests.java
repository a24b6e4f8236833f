package dev.modelarmor.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.modelarmor.client.SanitizeOptions;

import dev.modelarmor.client.DataItem;

import java.util.concurrent.TimeUnit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryCustomizer;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.support.RetryTemplate;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The auto-configuration in real application contexts, calling WireMock on loopback.
 */
class ModelArmorAutoConfigurationTests {

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.template-id=default-template",
				"modelarmor.credentials.enabled=false");

	private ApplicationContextRunner againstWireMock() {
		return this.runner.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl());
	}

	private static String promptPath(String project, String location, String template) {
		return "/v1/projects/" + project + "/locations/" + location + "/templates/" + template + ":sanitizeUserPrompt";
	}

	@Test
	void createsTheTemplateAndPublishesNoRetryTemplate() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorTemplate.class);
			assertThat(context).hasBean("modelArmorTemplate");
			assertThat(context).doesNotHaveBean(RetryTemplate.class);
			assertThat(context.getBean(ModelArmorTemplate.class).getTemplateId()).isEqualTo("default-template");
		});
	}

	@Test
	void callsTheConfiguredEndpointWithTheConfiguredTemplate() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project", "europe-west4", "default-template")))
			.willReturn(okJson(NO_MATCH)));
		againstWireMock().withPropertyValues("modelarmor.location=europe-west4").run((context) -> {
			assertThat(context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound()).isFalse();
		});
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project", "europe-west4", "default-template")))
			.withHeader("Authorization", absent())
			.withHeader("x-goog-user-project", absent()));
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnOperations() {
		this.runner.withUserConfiguration(OwnOperations.class).run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorOperations.class);
			assertThat(context).doesNotHaveBean(ModelArmorTemplate.class);
			assertThat(context).hasBean("myOperations");
		});
	}

	@Test
	void disabledStarterCreatesNoBeans() {
		this.runner.withPropertyValues("modelarmor.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ModelArmorOperations.class);
			assertThat(context).doesNotHaveBean(ModelArmorProperties.class);
		});
	}

	@Test
	void backsOffWithoutSpringRetryOrGoogleAuthOnTheClasspath() {
		this.runner.withClassLoader(new FilteredClassLoader(RetryTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorOperations.class));
		this.runner.withClassLoader(new FilteredClassLoader(GoogleCredentials.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorOperations.class));
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			modelarmor.location                | US Central
			modelarmor.template-id             | '  '
			modelarmor.endpoint                | http://modelarmor.example.com
			modelarmor.endpoint                | ftp://localhost/
			modelarmor.endpoint                | not a url
			modelarmor.http.connect-timeout    | 0s
			modelarmor.http.read-timeout       | -1s
			modelarmor.retry.initial-backoff   | -1s
			modelarmor.retry.jitter            | -5ms
			modelarmor.retry.max-backoff       | 500ms
			modelarmor.retry.deadline          | 0s
			modelarmor.health.cache-time-to-live | -1s
			modelarmor.retry.budget.max-tokens   | 0
			modelarmor.retry.budget.max-tokens   | 1001
			modelarmor.retry.budget.token-ratio  | 0
			modelarmor.retry.budget.token-ratio  | 1.5
			""")
	void invalidPropertiesFailStartupNamingTheProperty(String property, String value) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith(property + ": ")
				.satisfies((ex) -> assertThat(((ModelArmorConfigurationException) ex).property()).isEqualTo(property));
		});
	}

	@Test
	void plainHttpIsAcceptedForLoopbackHosts() {
		for (String endpoint : List.of("http://localhost:8089", "http://127.0.0.1:8089/", "http://[::1]:8089")) {
			this.runner.withPropertyValues("modelarmor.endpoint=" + endpoint)
				.run((context) -> assertThat(context).hasNotFailed());
		}
	}

	@Test
	void projectIdFallsBackToSpringCloudGcp() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("gcp-project", "us-central1", "default-template")))
			.willReturn(okJson(NO_MATCH)));
		againstWireMock().withPropertyValues("modelarmor.project-id=", "spring.cloud.gcp.project-id=gcp-project")
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("gcp-project", "us-central1", "default-template"))));
	}

	@Test
	void aMissingProjectIdFailsStartupNamingTheProperty() {
		assumeTrue(System.getenv("GOOGLE_CLOUD_PROJECT") == null, "GOOGLE_CLOUD_PROJECT is set on this machine");
		this.runner.withPropertyValues("modelarmor.project-id=").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageContaining("modelarmor.project-id");
		});
	}

	@Test
	void credentialsFromALocationAuthorizeCallsAndNameTheProject(@TempDir Path directory) throws Exception {
		modelArmor.stubFor(post(urlEqualTo("/token"))
			.willReturn(okJson("{\"access_token\":\"ya29.autoconfig\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		String path = promptPath(TestServiceAccount.PROJECT_ID, "us-central1", "default-template");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));
		Path key = TestServiceAccount.create(modelArmor.baseUrl() + "/token").writeTo(directory);

		againstWireMock()
			.withPropertyValues("modelarmor.project-id=", "modelarmor.credentials.enabled=true",
					"modelarmor.credentials.location=file:" + key, "modelarmor.credentials.quota-project-id=billing")
			.run((context) -> {
				ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
				operations.sanitizeUserPrompt("one");
				operations.sanitizeUserPrompt("two");
			});

		modelArmor.verify(2, postRequestedFor(urlPathEqualTo(path))
			.withHeader("Authorization", equalTo("Bearer ya29.autoconfig"))
			.withHeader("x-goog-user-project", equalTo("billing")));
		modelArmor.verify(1, postRequestedFor(urlEqualTo("/token")));
	}

	@Test
	void quotaProjectIsSentEvenWithoutCredentials() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project", "us-central1", "default-template")))
			.willReturn(okJson(NO_MATCH)));
		againstWireMock().withPropertyValues("modelarmor.credentials.quota-project-id=billing")
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project", "us-central1", "default-template")))
			.withHeader("x-goog-user-project", equalTo("billing"))
			.withHeader("Authorization", absent()));
	}

	@Test
	void aRetryRuntimeBeanAndOrderedCustomizersShapeTheRetries() {
		failOnceThenAnswer();
		againstWireMock().withUserConfiguration(VirtualRetries.class).run((context) -> {
			context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello");
			VirtualRetries retries = context.getBean(VirtualRetries.class);
			assertThat(retries.time.sleeps()).hasSize(1);
			assertThat(retries.calls).containsExactly("first customizer", "second customizer", "listener saw 1 error");
		});
		assertThat(modelArmor.getAllServeEvents()).hasSize(2);
	}

	@Test
	void aCustomizersRetryListenerHearsBothPathsInTheSameOrder() {
		failOnceThenAnswer();
		againstWireMock().withUserConfiguration(ListeningRetries.class).run((context) -> {
			ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
			List<String> heard = context.getBean(ListeningRetries.class).heard;
			operations.sanitizeUserPrompt("hello");
			List<String> blocking = List.copyOf(heard);
			heard.clear();
			modelArmor.resetScenarios();
			assertThat(operations.isNonBlocking()).isTrue();
			operations.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, (task) -> {
				throw new AssertionError("the non-blocking path runs on no executor");
			}).get(10, TimeUnit.SECONDS);
			assertThat(blocking).containsExactly("open", "onError 1", "onSuccess 1", "close ok");
			assertThat(heard).isEqualTo(blocking);
		});
	}

	@Test
	void anEnabledRetryBudgetEndsAnOutageWithBudgetExhausted() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project", "us-central1", "default-template")))
			.willReturn(aResponse().withStatus(503)));
		againstWireMock().withUserConfiguration(VirtualRetries.class)
			.withPropertyValues("modelarmor.retry.budget.enabled=true", "modelarmor.retry.budget.retry-ratio=0",
					"modelarmor.retry.budget.min-retries-per-second=0",
					"modelarmor.retry.budget.failure-rate-threshold=0", "modelarmor.retry.budget.failing-for=0s")
			.run((context) -> assertThatExceptionOfType(ModelArmorApiException.class)
				.isThrownBy(() -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"))
				.satisfies((ex) -> {
					// held back from the first failure, with no ratio and no floor: no retry at all
					assertThat(ex.attempts()).isEqualTo(1);
					assertThat(ex.outcome()).contains(CallOutcome.BUDGET_EXHAUSTED);
				}));
	}

	@Test
	void theJitterModeIsBoundAndAFullJitterWithoutBackoffIsRejected() {
		this.runner.withPropertyValues("modelarmor.retry.jitter-mode=decorrelated")
			.run((context) -> assertThat(context.getBean(ModelArmorSettings.class).retry().jitterMode())
				.isEqualTo(dev.modelarmor.retry.JitterMode.DECORRELATED));
		this.runner.withPropertyValues("modelarmor.retry.jitter-mode=full", "modelarmor.retry.initial-backoff=0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageStartingWith("modelarmor.retry.initial-backoff: "));
	}

	@Test
	void disabledRetriesMakeOneAttempt() {
		failOnceThenAnswer();
		againstWireMock().withPropertyValues("modelarmor.retry.enabled=false")
			.run((context) -> assertThatExceptionOfType(ModelArmorApiException.class)
				.isThrownBy(() -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"))
				.satisfies((ex) -> assertThat(ex.attempts()).isEqualTo(1)));
		assertThat(modelArmor.getAllServeEvents()).hasSize(1);
	}

	@Test
	void springBootsRestClientBuilderIsUsedWhenPresent() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project", "us-central1", "default-template")))
			.willReturn(okJson(NO_MATCH)));
		againstWireMock().withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class))
			.withUserConfiguration(TaggingRestClientCustomizer.class)
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project", "us-central1", "default-template")))
			.withHeader("X-Application", equalTo("tagged by the application's RestClientCustomizer")));
	}

	private static void failOnceThenAnswer() {
		String path = promptPath("demo-project", "us-central1", "default-template");
		modelArmor.stubFor(post(urlPathEqualTo(path)).inScenario("once")
			.whenScenarioStateIs(STARTED)
			.willReturn(aResponse().withStatus(503))
			.willSetStateTo("up"));
		modelArmor.stubFor(post(urlPathEqualTo(path)).inScenario("once").whenScenarioStateIs("up").willReturn(okJson(NO_MATCH)));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnOperations {

		@Bean
		ModelArmorOperations myOperations() {
			return Mockito.mock(ModelArmorOperations.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class VirtualRetries {

		final VirtualTime time = new VirtualTime();

		final List<String> calls = new ArrayList<>();

		@Bean
		RetryRuntime virtualRetryRuntime() {
			return this.time.runtime(new SplittableRandom(42));
		}

		@Bean
		@Order(2)
		ModelArmorRetryCustomizer second() {
			return (template) -> this.calls.add("second customizer");
		}

		@Bean
		@Order(1)
		ModelArmorRetryCustomizer first() {
			return (template) -> {
				this.calls.add("first customizer");
				template.registerListener(new RetryListener() {
					@Override
					public <T, E extends Throwable> void onError(RetryContext context, RetryCallback<T, E> callback,
							Throwable throwable) {
						VirtualRetries.this.calls.add("listener saw " + context.getRetryCount() + " error");
					}
				});
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ListeningRetries {

		final VirtualTime time = new VirtualTime();

		final List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();

		@Bean
		RetryRuntime virtualRetryRuntime() {
			return this.time.runtime(new SplittableRandom(42));
		}

		@Bean
		ModelArmorRetryCustomizer listening() {
			return (template) -> template.registerListener(new RetryListener() {

				@Override
				public <T, E extends Throwable> boolean open(RetryContext context, RetryCallback<T, E> callback) {
					return ListeningRetries.this.heard.add("open");
				}

				@Override
				public <T, E extends Throwable> void onError(RetryContext context, RetryCallback<T, E> callback,
						Throwable throwable) {
					ListeningRetries.this.heard.add("onError " + context.getRetryCount());
				}

				@Override
				public <T, E extends Throwable> void onSuccess(RetryContext context, RetryCallback<T, E> callback,
						T result) {
					ListeningRetries.this.heard.add("onSuccess " + context.getRetryCount());
				}

				@Override
				public <T, E extends Throwable> void close(RetryContext context, RetryCallback<T, E> callback,
						@Nullable Throwable throwable) {
					ListeningRetries.this.heard.add("close " + ((throwable != null) ? "failed" : "ok"));
				}

			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TaggingRestClientCustomizer {

		@Bean
		RestClientCustomizer taggingCustomizer() {
			return (builder) -> builder.defaultHeader("X-Application", "tagged by the application's RestClientCustomizer");
		}

	}

}
