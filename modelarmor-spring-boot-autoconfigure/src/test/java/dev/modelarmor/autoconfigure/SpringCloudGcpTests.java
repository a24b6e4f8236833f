package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.google.api.gax.core.CredentialsProvider;
import com.google.auth.Credentials;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.spring.core.GcpProjectIdProvider;
import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With spring-cloud-gcp on the class path, its {@code googleCredentials} bean (gax's
 * {@link CredentialsProvider}, the real type) and its {@link GcpProjectIdProvider} bean (a test-only stand-in
 * of the same name: spring-cloud-gcp-core does not resolve here) are used, below what is set for Model Armor
 * alone.
 */
class SpringCloudGcpTests {

	static final String NO_MATCH = CredentialsBeanTests.NO_MATCH;

	static final String GCP_TOKEN = "ya29.spring-cloud-gcp-token";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.template-id=default-template", "modelarmor.endpoint=" + modelArmor.baseUrl());

	private final AtomicInteger credentialsAsked = new AtomicInteger();

	private ApplicationContextRunner withSpringCloudGcp() {
		GoogleCredentials credentials = GoogleCredentials
			.create(new AccessToken(GCP_TOKEN, Date.from(Instant.now().plus(Duration.ofHours(1)))));
		return this.runner.withBean("googleCredentials", CredentialsProvider.class, () -> () -> {
			this.credentialsAsked.incrementAndGet();
			return credentials;
		}).withBean("gcpProjectIdProvider", GcpProjectIdProvider.class, () -> () -> "gcp-project");
	}

	@Test
	void callsUseSpringCloudGcpsCredentialsAndProject() {
		String path = CredentialsBeanTests.promptPath("gcp-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));

		withSpringCloudGcp().run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello");
		});

		modelArmor.verify(1,
				postRequestedFor(urlPathEqualTo(path)).withHeader("Authorization", equalTo("Bearer " + GCP_TOKEN)));
		assertThat(this.credentialsAsked).hasValue(1);
	}

	@Test
	void theModelArmorSettingsWinOverSpringCloudGcps(@TempDir Path directory) throws Exception {
		modelArmor.stubFor(post(urlEqualTo("/token"))
			.willReturn(okJson("{\"access_token\":\"ya29.from-key-file\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")));
		String path = CredentialsBeanTests.promptPath("own-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));
		Path key = TestServiceAccount.create(modelArmor.baseUrl() + "/token").writeTo(directory);

		withSpringCloudGcp()
			.withPropertyValues("modelarmor.project-id=own-project", "modelarmor.credentials.location=file:" + key)
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(path))
			.withHeader("Authorization", equalTo("Bearer ya29.from-key-file")));
		assertThat(this.credentialsAsked).hasValue(0);
	}

	@Test
	void theApplicationsBeanWinsOverSpringCloudGcps() {
		String path = CredentialsBeanTests.promptPath("gcp-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));
		GoogleCredentials own = CredentialsBeanTests.userCredentials();

		withSpringCloudGcp().withBean(ModelArmorCredentialsProvider.class, () -> () -> own)
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(path))
			.withHeader("Authorization", equalTo("Bearer " + CredentialsBeanTests.USER_TOKEN)));
		assertThat(this.credentialsAsked).hasValue(0);
	}

	@Test
	void springCloudGcpsProjectWinsOverItsPropertyAndTheEnvironment() {
		// Its own provider reads spring.cloud.gcp.project-id first; an application's provider replaces that.
		String path = CredentialsBeanTests.promptPath("gcp-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));

		withSpringCloudGcp()
			.withPropertyValues("spring.cloud.gcp.project-id=property-project", "GOOGLE_CLOUD_PROJECT=env-project")
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));

		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(path)));
	}

	@Test
	void withoutSpringCloudGcpOnTheClassPathAGaxProviderIsNotUsed() {
		// gax alone (any Google Cloud client library) is not spring-cloud-gcp: its beans may be meant for
		// another service.
		withSpringCloudGcp().withClassLoader(new FilteredClassLoader(GcpProjectIdProvider.class))
			.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.credentials.enabled=false")
			.run((context) -> {
				SpringCloudGcp gcp = new SpringCloudGcp(context.getBeanFactory(), context.getClassLoader());
				assertThat(gcp.credentials()).isNull();
				assertThat(gcp.projectId()).isNull();
			});
		assertThat(this.credentialsAsked).hasValue(0);
	}

	@Test
	void noCredentialsFromSpringCloudGcpFallThroughToApplicationDefaultCredentials() {
		// gax's NoCredentialsProvider answers null (emulators); Model Armor has no emulator.
		StartupReportTests.assumeNoApplicationDefaultCredentials();
		this.runner.withPropertyValues("modelarmor.project-id=demo-project")
			.withBean("googleCredentials", CredentialsProvider.class, () -> () -> null)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(CredentialsBeanTests.configurationFailure(context.getStartupFailure()).problem())
					.isEqualTo("no Application Default Credentials were found");
			});
	}

	@Test
	void failingSpringCloudGcpCredentialsFailStartupWithoutTheirMessage() {
		this.runner.withPropertyValues("modelarmor.project-id=demo-project")
			.withBean("googleCredentials", CredentialsProvider.class, () -> () -> {
				throw new IOException("SECRET-CONTENT-42 from the key file");
			})
			.run((context) -> {
				assertThat(context).hasFailed();
				ModelArmorConfigurationException failure = CredentialsBeanTests
					.configurationFailure(context.getStartupFailure());
				assertThat(failure.property()).isEqualTo("modelarmor.credentials.location");
				assertThat(failure.problem()).isEqualTo(
						"spring-cloud-gcp is on the class path but its CredentialsProvider bean could not supply "
								+ "credentials (IOException)");
				assertThat(failure.action()).isEqualTo("Fix spring.cloud.gcp.credentials.*, or set "
						+ "modelarmor.credentials.location, or define a ModelArmorCredentialsProvider bean");
				assertThat(failure.getMessage()).doesNotContain("SECRET-CONTENT-42");
				assertThat(failure.getCause()).isInstanceOf(IOException.class);
			});
	}

	@Test
	void credentialsThatAreNotGoogleCredentialsAreRefusedByName() {
		Credentials other = new ApiKeyLikeCredentials();
		this.runner.withPropertyValues("modelarmor.project-id=demo-project")
			.withBean("googleCredentials", CredentialsProvider.class, () -> () -> other)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(CredentialsBeanTests.configurationFailure(context.getStartupFailure()).problem())
					.isEqualTo("spring-cloud-gcp's CredentialsProvider bean supplies ApiKeyLikeCredentials, not GoogleCredentials");
			});
	}

	@Test
	void aFailingProjectIdProviderIsReportedOnTheProjectId() {
		this.runner.withPropertyValues("modelarmor.credentials.enabled=false")
			.withBean("gcpProjectIdProvider", GcpProjectIdProvider.class, () -> () -> {
				throw new IllegalStateException("metadata server unreachable");
			})
			.run((context) -> {
				assertThat(context).hasFailed();
				ModelArmorConfigurationException failure = CredentialsBeanTests
					.configurationFailure(context.getStartupFailure());
				assertThat(failure.property()).isEqualTo("modelarmor.project-id");
				assertThat(failure.problem()).isEqualTo(
						"spring-cloud-gcp is on the class path but its GcpProjectIdProvider bean failed (IllegalStateException)");
			});
	}

	@Test
	void aBlankProjectFromSpringCloudGcpFallsThrough() {
		String path = CredentialsBeanTests.promptPath("property-project");
		modelArmor.stubFor(post(urlPathEqualTo(path)).willReturn(okJson(NO_MATCH)));
		this.runner.withPropertyValues("modelarmor.credentials.enabled=false", "spring.cloud.gcp.project-id=property-project")
			.withBean("gcpProjectIdProvider", GcpProjectIdProvider.class, () -> () -> " ")
			.run((context) -> context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello"));
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(path)));
	}

	/** Credentials of another kind than GoogleCredentials, such as gax's API-key credentials. */
	static final class ApiKeyLikeCredentials extends Credentials {

		@Override
		public String getAuthenticationType() {
			return "api-key";
		}

		@Override
		public Map<String, List<String>> getRequestMetadata(URI uri) {
			return Map.of();
		}

		@Override
		public boolean hasRequestMetadata() {
			return true;
		}

		@Override
		public boolean hasRequestMetadataOnly() {
			return true;
		}

		@Override
		public void refresh() {
		}

	}

}
