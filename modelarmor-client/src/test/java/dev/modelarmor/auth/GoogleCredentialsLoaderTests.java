package dev.modelarmor.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.FileSystemResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link GoogleCredentialsLoader}. Application Default Credentials are always injected:
 * the real lookup would probe the metadata server.
 */
class GoogleCredentialsLoaderTests {

	private static final String TOKEN_URI = "http://localhost:1/token";

	private final GoogleCredentialsLoader loader = new GoogleCredentialsLoader(() -> {
		throw new AssertionError("Application Default Credentials must not be looked up");
	});

	@TempDir
	Path directory;

	@Test
	void loadsServiceAccountFileAndScopesItToCloudPlatform() throws IOException {
		Path file = TestServiceAccount.create(TOKEN_URI).writeTo(this.directory);

		GoogleCredentials credentials = this.loader.load(new FileSystemResource(file), null);

		assertThat(credentials).isInstanceOf(ServiceAccountCredentials.class);
		ServiceAccountCredentials serviceAccount = (ServiceAccountCredentials) credentials;
		assertThat(serviceAccount.getScopes()).containsExactly(GoogleCredentialsLoader.CLOUD_PLATFORM_SCOPE);
		assertThat(serviceAccount.createScopedRequired()).isFalse();
		assertThat(serviceAccount.getClientEmail()).isEqualTo(TestServiceAccount.CLIENT_EMAIL);
		assertThat(serviceAccount.getProjectId()).isEqualTo(TestServiceAccount.PROJECT_ID);
		assertThat(serviceAccount.getQuotaProjectId()).isNull();
	}

	@Test
	void loadsFromAnyResource() {
		TestServiceAccount account = TestServiceAccount.create(TOKEN_URI);

		GoogleCredentials credentials = this.loader.load(new ByteArrayResource(account.bytes()), null);

		assertThat(((ServiceAccountCredentials) credentials).getScopes())
			.containsExactly(GoogleCredentialsLoader.CLOUD_PLATFORM_SCOPE);
	}

	@Test
	void appliesQuotaProject() {
		TestServiceAccount account = TestServiceAccount.create(TOKEN_URI);

		GoogleCredentials credentials = this.loader.load(new ByteArrayResource(account.bytes()), " billing-project ");

		assertThat(credentials.getQuotaProjectId()).isEqualTo("billing-project");
		assertThat(((ServiceAccountCredentials) credentials).getScopes())
			.containsExactly(GoogleCredentialsLoader.CLOUD_PLATFORM_SCOPE);
	}

	@Test
	void blankQuotaProjectKeepsTheOneFromTheFile() {
		TestServiceAccount account = TestServiceAccount.create(TOKEN_URI, "file-quota-project");

		GoogleCredentials credentials = this.loader.load(new ByteArrayResource(account.bytes()), "  ");

		assertThat(credentials.getQuotaProjectId()).isEqualTo("file-quota-project");
	}

	@Test
	void missingFileNamesPropertyAndResource() {
		Path missing = this.directory.resolve("nowhere.json");

		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> this.loader.load(new FileSystemResource(missing), null))
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo(GoogleCredentialsLoader.LOCATION_PROPERTY))
			.withMessageContaining(GoogleCredentialsLoader.LOCATION_PROPERTY)
			.withMessageContaining(missing.toString())
			.withMessageContaining("does not exist");
	}

	@Test
	void garbageFileNamesPropertyButNotItsContent() throws IOException {
		Path file = Files.writeString(this.directory.resolve("garbage.json"), "not-json SECRET-CONTENT-42 {{{",
				StandardCharsets.UTF_8);

		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> this.loader.load(new FileSystemResource(file), null))
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo(GoogleCredentialsLoader.LOCATION_PROPERTY))
			.withMessageContaining(GoogleCredentialsLoader.LOCATION_PROPERTY)
			.withMessageContaining(file.toString())
			.withMessageContaining("not a valid Google credentials JSON")
			.withMessageNotContaining("SECRET-CONTENT-42")
			.satisfies((ex) -> assertThat(ex).hasNoCause());
	}

	@Test
	void unknownCredentialTypeIsRejectedWithoutEchoingTheFile() {
		String json = "{\"type\": \"SECRET-TYPE-42\", \"private_key\": \"SECRET-KEY-42\"}";

		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> this.loader.load(new ByteArrayResource(json.getBytes(StandardCharsets.UTF_8)), null))
			.withMessageContaining(GoogleCredentialsLoader.LOCATION_PROPERTY)
			.withMessageNotContaining("SECRET-TYPE-42")
			.withMessageNotContaining("SECRET-KEY-42");
	}

	@Test
	void brokenPrivateKeyIsNotQuoted() {
		TestServiceAccount account = TestServiceAccount.create(TOKEN_URI);
		String fragment = account.privateKeyFragment();
		// Cut the key in the middle so that it no longer parses.
		String broken = account.json().replace(fragment, fragment.substring(0, 20) + "!!");

		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(() -> this.loader.load(new ByteArrayResource(broken.getBytes(StandardCharsets.UTF_8)), null))
			.withMessageContaining(GoogleCredentialsLoader.LOCATION_PROPERTY)
			.withMessageNotContaining(fragment.substring(0, 20))
			.withMessageNotContaining("PRIVATE KEY");
	}

	@Test
	void usesApplicationDefaultCredentialsWhenNoLocationIsGiven() {
		GoogleCredentials unscoped = ServiceAccountCredentials.newBuilder()
			.setClientEmail(TestServiceAccount.CLIENT_EMAIL)
			.setPrivateKey(generatePrivateKey())
			.setProjectId("adc-project")
			.build();
		AtomicInteger lookups = new AtomicInteger();
		GoogleCredentialsLoader adcLoader = new GoogleCredentialsLoader(() -> {
			lookups.incrementAndGet();
			return unscoped;
		});

		GoogleCredentials credentials = adcLoader.load(null, "adc-quota");

		assertThat(lookups).hasValue(1);
		assertThat(((ServiceAccountCredentials) credentials).getScopes())
			.containsExactly(GoogleCredentialsLoader.CLOUD_PLATFORM_SCOPE);
		assertThat(credentials.getQuotaProjectId()).isEqualTo("adc-quota");
		assertThat(credentials.getProjectId()).isEqualTo("adc-project");
	}

	@Test
	void missingApplicationDefaultCredentialsExplainWhatToDo() {
		IOException notFound = new IOException("Your default credentials were not found.");
		GoogleCredentialsLoader adcLoader = new GoogleCredentialsLoader(() -> {
			throw notFound;
		});

		assertThatExceptionOfType(ModelArmorConfigurationException.class).isThrownBy(() -> adcLoader.load(null, null))
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo(GoogleCredentialsLoader.LOCATION_PROPERTY))
			.withMessageContaining("Application Default Credentials")
			.withMessageContaining("gcloud auth application-default login")
			.withMessageContaining(GoogleCredentialsLoader.LOCATION_PROPERTY)
			.withMessageContaining("modelarmor.credentials.enabled=false")
			.withCause(notFound);
	}

	@Test
	void failingApplicationDefaultLookupOfAnotherKindIsReportedToo() {
		GoogleCredentialsLoader adcLoader = new GoogleCredentialsLoader(() -> {
			throw new IllegalStateException("boom");
		});

		assertThatExceptionOfType(ModelArmorConfigurationException.class).isThrownBy(() -> adcLoader.load(null, null))
			.withMessageContaining("Application Default Credentials could not be loaded")
			.withCauseInstanceOf(IllegalStateException.class);
	}

	private static java.security.PrivateKey generatePrivateKey() {
		try {
			java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair().getPrivate();
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
