package dev.modelarmor.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.auth.StallingTokenEndpoint;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.retry.CallOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The credentials part of {@link ModelArmorAutoConfiguration}: the wait for a token is bounded by the
 * configured read timeout and retry deadline, and the token threads live as long as the context.
 */
class CredentialsAutoConfigurationTests {

	static final String PROMPT_PATH = "/v1/projects/sa-project/locations/us-central1/templates/default-template:sanitizeUserPrompt";

	static final String REFRESH_THREAD = "modelarmor-token-refresh-";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@TempDir
	Path directory;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.template-id=default-template", "modelarmor.endpoint=" + modelArmor.baseUrl());

	private ApplicationContextRunner withKey(String tokenUri) throws Exception {
		Path key = TestServiceAccount.create(tokenUri).writeTo(this.directory);
		return this.runner.withPropertyValues("modelarmor.credentials.location=file:" + key);
	}

	@Test
	void theTokenThreadStopsWhenTheContextCloses() throws Exception {
		modelArmor.stubFor(post(urlEqualTo("/token"))
			.willReturn(okJson("{\"access_token\":\"ya29.autoconfig\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		Set<Thread> before = refreshThreads();
		Set<Thread> started = new HashSet<>();

		withKey(modelArmor.baseUrl() + "/token").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ModelArmorAuthorization.class);
			started.addAll(refreshThreads());
			started.removeAll(before);
		});

		assertThat(started).hasSize(1);
		Thread refresher = started.iterator().next();
		refresher.join(Duration.ofSeconds(5).toMillis());
		assertThat(refresher.isAlive()).isFalse();
	}

	@Test
	void aStalledTokenEndpointHoldsACallNoLongerThanTheReadTimeout() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			withKey(stalling.tokenUri())
				.withPropertyValues("modelarmor.http.read-timeout=300ms", "modelarmor.retry.enabled=false")
				.run((context) -> assertEndsWithin(context.getBean(ModelArmorOperations.class), Duration.ofMillis(300),
						CallOutcome.NON_RETRYABLE));
		}
		modelArmor.verify(0, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
	}

	@Test
	void aStalledTokenEndpointHoldsACallNoLongerThanTheRetryDeadline() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			withKey(stalling.tokenUri()).withPropertyValues("modelarmor.retry.deadline=1s")
				.run((context) -> assertEndsWithin(context.getBean(ModelArmorOperations.class), Duration.ofSeconds(1),
						CallOutcome.DEADLINE_EXCEEDED));
		}
		modelArmor.verify(0, postRequestedFor(urlPathEqualTo(PROMPT_PATH)));
	}

	@Test
	void anApplicationsOwnClientNeedsNoCredentials() {
		// Credentials enabled, no location, and Application Default Credentials that could not be found
		// would fail startup, were they loaded.
		this.runner.withUserConfiguration(OwnClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(ModelArmorAuthorization.class);
		});
	}

	private static void assertEndsWithin(ModelArmorOperations operations, Duration bound, CallOutcome outcome) {
		long started = System.nanoTime();
		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> operations.sanitizeUserPrompt("hello"))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).isEqualTo("Model Armor could not be called: token unavailable (TimeoutException)");
				assertThat(ex.outcome()).contains(outcome);
			});
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		assertThat(elapsed).isBetween(bound.minusMillis(50), bound.plusSeconds(1));
	}

	private static Set<Thread> refreshThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith(REFRESH_THREAD))
			.collect(Collectors.toSet());
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClient {

		@Bean
		ModelArmorOperations ownModelArmor() {
			return Mockito.mock(ModelArmorOperations.class);
		}

	}

}
