package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ImpersonatedCredentials;
import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application's own {@link ModelArmorCredentialsProvider} bean replaces the starter's credentials:
 * calls carry its token, it wins over {@code modelarmor.credentials.location}, loses to
 * {@code modelarmor.credentials.enabled=false}, and the starter never changes it.
 */
class CredentialsBeanTests {

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	/** The token of the application's credentials: only the Authorization header may carry it. */
	static final String USER_TOKEN = "ya29.user-bean-token";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.template-id=default-template",
				"modelarmor.endpoint=" + modelArmor.baseUrl());

	static String promptPath(String project) {
		return "/v1/projects/" + project + "/locations/us-central1/templates/default-template:sanitizeUserPrompt";
	}

	static GoogleCredentials userCredentials() {
		return GoogleCredentials.create(new AccessToken(USER_TOKEN, Date.from(Instant.now().plus(Duration.ofHours(1)))));
	}

	@Test
	void callsCarryTheTokenOfTheApplicationsBean() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project"))).willReturn(okJson(NO_MATCH)));
		GoogleCredentials credentials = userCredentials();

		this.runner.withBean(ModelArmorCredentialsProvider.class, () -> () -> credentials).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ModelArmorCredentialsProvider.class);
			assertThat(context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound()).isFalse();
		});

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project")))
			.withHeader("Authorization", equalTo("Bearer " + USER_TOKEN))
			.withHeader("x-goog-user-project", absent()));
	}

	@Test
	void theBeanWinsOverTheLocationProperty(@TempDir Path directory) throws Exception {
		modelArmor.stubFor(post(urlEqualTo("/token"))
			.willReturn(okJson("{\"access_token\":\"ya29.from-key-file\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project"))).willReturn(okJson(NO_MATCH)));
		Path key = TestServiceAccount.create(modelArmor.baseUrl() + "/token").writeTo(directory);
		GoogleCredentials credentials = userCredentials();

		this.runner.withPropertyValues("modelarmor.credentials.location=file:" + key)
			.withBean(ModelArmorCredentialsProvider.class, () -> () -> credentials)
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project")))
			.withHeader("Authorization", equalTo("Bearer " + USER_TOKEN)));
		modelArmor.verify(0, postRequestedFor(urlEqualTo("/token")));
	}

	@Test
	void theStarterNeitherChangesNorClosesTheApplicationsCredentials() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project"))).willReturn(okJson(NO_MATCH)));
		GoogleCredentials credentials = userCredentials();
		AccessToken token = credentials.getAccessToken();

		this.runner.withPropertyValues("modelarmor.credentials.quota-project-id=billing")
			.withBean(ModelArmorCredentialsProvider.class, () -> () -> credentials)
			.run((context) -> {
				assertThat(context.getBean(ModelArmorCredentialsProvider.class).getCredentials()).isSameAs(credentials);
				context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello");
			});

		// The quota project went on a copy: the header carries it, the application's object does not.
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project")))
			.withHeader("Authorization", equalTo("Bearer " + USER_TOKEN))
			.withHeader("x-goog-user-project", equalTo("billing")));
		assertThat(credentials.getQuotaProjectId()).isNull();
		// Still usable after the context closed (the starter's token threads are its own).
		assertThat(credentials.getAccessToken()).isSameAs(token);
		assertThat(credentials.createScopedRequired()).isFalse();
	}

	@Test
	void theTokenThreadsForTheBeansCredentialsStopWithTheContext() throws InterruptedException {
		Set<Thread> before = refreshThreads();
		Set<Thread> started = new HashSet<>();
		GoogleCredentials credentials = userCredentials();

		this.runner.withBean(ModelArmorCredentialsProvider.class, () -> () -> credentials).run((context) -> {
			assertThat(context).hasNotFailed();
			started.addAll(refreshThreads());
			started.removeAll(before);
		});

		assertThat(started).hasSize(1);
		Thread refresher = started.iterator().next();
		refresher.join(Duration.ofSeconds(5).toMillis());
		assertThat(refresher.isAlive()).isFalse();
		assertThat(credentials.getAccessToken().getTokenValue()).isEqualTo(USER_TOKEN);
	}

	@Test
	void credentialsDisabledWinOverTheBean() {
		modelArmor.stubFor(post(urlPathEqualTo(promptPath("demo-project"))).willReturn(okJson(NO_MATCH)));
		AtomicInteger asked = new AtomicInteger();

		this.runner.withPropertyValues("modelarmor.credentials.enabled=false")
			.withBean(ModelArmorCredentialsProvider.class, () -> () -> {
				asked.incrementAndGet();
				return userCredentials();
			})
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		assertThat(asked).hasValue(0);
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(promptPath("demo-project")))
			.withHeader("Authorization", absent()));
	}

	@Test
	void theProjectOfTheBeansCredentialsIsTheLastFallback() {
		String path = promptPath("bean-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));
		GoogleCredentials credentials = Mockito.spy(userCredentials());
		Mockito.when(credentials.getProjectId()).thenReturn("bean-project");

		this.runner.withPropertyValues("modelarmor.project-id=")
			.withBean(ModelArmorCredentialsProvider.class, () -> () -> credentials)
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(path)));
	}

	@Test
	void aFailingBeanFailsStartupNamingItButNotItsMessage() {
		this.runner.withBean(ModelArmorCredentialsProvider.class, () -> () -> {
			throw new IOException("SECRET-CONTENT-42 quoted from a key file");
		}).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(IOException.class);
			ModelArmorConfigurationException failure = configurationFailure(context.getStartupFailure());
			assertThat(failure.property()).isEqualTo("modelarmor.credentials.location");
			assertThat(failure.problem())
				.isEqualTo("the ModelArmorCredentialsProvider bean could not supply credentials (IOException)");
			assertThat(failure.action()).isEqualTo("Fix the ModelArmorCredentialsProvider bean, or remove it to use "
					+ "modelarmor.credentials.location or Application Default Credentials");
			assertThat(failure.getMessage()).doesNotContain("SECRET-CONTENT-42");
		});
	}

	@Test
	void aBeanThatSuppliesNothingFailsStartup() {
		this.runner.withBean(ModelArmorCredentialsProvider.class, () -> () -> null).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure()).problem())
				.isEqualTo("the ModelArmorCredentialsProvider bean supplied no credentials");
		});
	}

	@Test
	void theBeanIsNotAskedWhenTheApplicationHasItsOwnClient() {
		AtomicInteger asked = new AtomicInteger();
		this.runner.withUserConfiguration(OwnClient.class)
			.withBean(ModelArmorCredentialsProvider.class, () -> () -> {
				asked.incrementAndGet();
				return userCredentials();
			})
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(ModelArmorAuthorization.class);
				assertThat(asked).hasValue(0);
			});
	}

	@Test
	void withoutABeanTheStarterProvidesOneThatLoadsNothingUntilAsked() {
		// Credentials enabled, no location, and (here) no Application Default Credentials: startup would
		// fail if the provider loaded anything when it is created.
		this.runner.withUserConfiguration(OwnClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ModelArmorCredentialsProvider.class))
				.isInstanceOf(DefaultModelArmorCredentialsProvider.class);
		});
	}

	@Test
	void theReadmeExampleIsABeanTheStarterUses() {
		this.runner.withUserConfiguration(ReadmeExample.class, OwnClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ModelArmorCredentialsProvider.class))
				.isSameAs(context.getBean("modelArmorCredentials"));
		});
	}

	private static Set<Thread> refreshThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith(CredentialsAutoConfigurationTests.REFRESH_THREAD))
			.collect(Collectors.toSet());
	}

	static ModelArmorConfigurationException configurationFailure(Throwable failure) {
		Throwable current = failure;
		while (current != null && !(current instanceof ModelArmorConfigurationException)) {
			current = current.getCause();
		}
		assertThat(current).as("a ModelArmorConfigurationException in the cause chain of %s", failure).isNotNull();
		return (ModelArmorConfigurationException) current;
	}

	/** The README's example, as written there. */
	@Configuration(proxyBeanMethods = false)
	static class ReadmeExample {

		@Bean
		ModelArmorCredentialsProvider modelArmorCredentials() {
			return () -> ImpersonatedCredentials.create(GoogleCredentials.getApplicationDefault(),
					"model-armor@my-project.iam.gserviceaccount.com", null,
					List.of("https://www.googleapis.com/auth/cloud-platform"), 3600);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClient {

		@Bean
		ModelArmorOperations ownModelArmor() {
			return Mockito.mock(ModelArmorOperations.class);
		}

	}

}
