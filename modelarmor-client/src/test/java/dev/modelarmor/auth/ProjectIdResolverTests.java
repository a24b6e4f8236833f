package dev.modelarmor.auth;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ProjectIdResolver}.
 */
class ProjectIdResolverTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final AtomicInteger credentialLookups = new AtomicInteger();

	/**
	 * Each row sets some of the four sources ({@code -} = unset, {@code _} = blank) and names
	 * the project expected.
	 */
	@ParameterizedTest(name = "[{index}] {0} | {1} | {2} | {3} -> {4}")
	@CsvSource(delimiter = '|', textBlock = """
			ma      | gcp     | env     | creds   | ma
			-       | gcp     | env     | creds   | gcp
			-       | -       | env     | creds   | env
			-       | -       | -       | creds   | creds
			_       | gcp     | env     | creds   | gcp
			_       | _       | env     | creds   | env
			_       | _       | _       | creds   | creds
			-       | _       | -       | creds   | creds
			ma      | -       | -       | -       | ma
			-       | gcp     | -       | -       | gcp
			-       | -       | env     | -       | env
			""")
	void resolvesInOrderOfPrecedence(String modelArmor, String springCloudGcp, String googleCloudProject,
			String credentialsProject, String expected) {
		set(ProjectIdResolver.PROJECT_ID_PROPERTY, modelArmor);
		set(ProjectIdResolver.SPRING_CLOUD_GCP_PROJECT_ID_PROPERTY, springCloudGcp);
		set(ProjectIdResolver.GOOGLE_CLOUD_PROJECT_VARIABLE, googleCloudProject);
		String projectOfCredentials = "-".equals(credentialsProject) ? null : credentialsProject;

		String projectId = resolver(() -> credentialsWithProject(projectOfCredentials)).resolve();

		assertThat(projectId).isEqualTo(expected);
	}

	@Test
	void doesNotTouchCredentialsWhenAPropertyNamesTheProject() {
		this.environment.setProperty(ProjectIdResolver.GOOGLE_CLOUD_PROJECT_VARIABLE, "env");

		String projectId = resolver(() -> {
			throw new AssertionError("credentials must not be asked for");
		}).resolve();

		assertThat(projectId).isEqualTo("env");
	}

	@Test
	void asksCredentialsOnlyOnceAndOnlyWhenNeeded() {
		String projectId = resolver(() -> credentialsWithProject("creds")).resolve();

		assertThat(projectId).isEqualTo("creds");
		assertThat(this.credentialLookups).hasValue(1);
	}

	@Test
	void stripsSurroundingBlanks() {
		this.environment.setProperty(ProjectIdResolver.PROJECT_ID_PROPERTY, "  my-project \t");

		assertThat(resolver(() -> null).resolve()).isEqualTo("my-project");
	}

	@Test
	void absentCredentialsWithoutAnyPropertyFail() {
		assertThatExceptionOfType(ModelArmorConfigurationException.class).isThrownBy(resolver(() -> null)::resolve)
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo(ProjectIdResolver.PROJECT_ID_PROPERTY))
			.withMessageStartingWith("modelarmor.project-id: ")
			.withMessageContaining("spring.cloud.gcp.project-id")
			.withMessageContaining("GOOGLE_CLOUD_PROJECT");
	}

	@Test
	void credentialsWithoutProjectAndBlankPropertiesFail() {
		this.environment.setProperty(ProjectIdResolver.PROJECT_ID_PROPERTY, " ");
		this.environment.setProperty(ProjectIdResolver.GOOGLE_CLOUD_PROJECT_VARIABLE, "");

		assertThatExceptionOfType(ModelArmorConfigurationException.class)
			.isThrownBy(resolver(() -> credentialsWithProject(null))::resolve)
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo(ProjectIdResolver.PROJECT_ID_PROPERTY))
			.withMessageContaining("no Google Cloud project id");
		assertThat(this.credentialLookups).hasValue(1);
	}

	private void set(String name, String value) {
		if (!"-".equals(value)) {
			this.environment.setProperty(name, "_".equals(value) ? "   " : value);
		}
	}

	private ProjectIdResolver resolver(Supplier<@Nullable GoogleCredentials> credentials) {
		return new ProjectIdResolver(this.environment, credentials);
	}

	private GoogleCredentials credentialsWithProject(@Nullable String projectId) {
		this.credentialLookups.incrementAndGet();
		return new GoogleCredentials() {

			@Override
			public String getProjectId() {
				return projectId;
			}

		};
	}

}
