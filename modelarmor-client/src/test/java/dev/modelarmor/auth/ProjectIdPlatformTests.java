package dev.modelarmor.auth;

import java.util.concurrent.atomic.AtomicInteger;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.Mockito;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the platform's project id provider (spring-cloud-gcp's) stands in {@link ProjectIdResolver}'s
 * order: after {@code modelarmor.project-id}, before everything else.
 */
class ProjectIdPlatformTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final AtomicInteger platformLookups = new AtomicInteger();

	/**
	 * Each row sets some of the five sources ({@code -} = unset, {@code _} = blank) and names the
	 * project expected.
	 */
	@ParameterizedTest(name = "[{index}] {0} | {1} | {2} | {3} | {4} -> {5}")
	@CsvSource(delimiter = '|', textBlock = """
			ma | platform | gcp | env | creds | ma
			-  | platform | gcp | env | creds | platform
			_  | platform | gcp | env | creds | platform
			-  | -        | gcp | env | creds | gcp
			-  | _        | gcp | env | creds | gcp
			-  | _        | -   | env | creds | env
			-  | _        | -   | -   | creds | creds
			""")
	void thePlatformComesRightAfterTheExplicitProperty(String modelArmor, String platform, String springCloudGcp,
			String googleCloudProject, String credentials, String expected) {
		set(ProjectIdResolver.PROJECT_ID_PROPERTY, modelArmor);
		set(ProjectIdResolver.SPRING_CLOUD_GCP_PROJECT_ID_PROPERTY, springCloudGcp);
		set(ProjectIdResolver.GOOGLE_CLOUD_PROJECT_VARIABLE, googleCloudProject);

		ProjectIdResolver resolver = new ProjectIdResolver(this.environment, () -> value(platform),
				() -> credentialsWithProject(value(credentials)));

		assertThat(resolver.find()).contains(expected);
		assertThat(resolver.resolve()).isEqualTo(expected);
	}

	@Test
	void thePlatformIsNotAskedWhenTheExplicitPropertyIsSet() {
		this.environment.setProperty(ProjectIdResolver.PROJECT_ID_PROPERTY, " explicit ");

		ProjectIdResolver resolver = new ProjectIdResolver(this.environment, () -> {
			this.platformLookups.incrementAndGet();
			return "platform";
		}, () -> null);

		assertThat(resolver.find()).contains("explicit");
		assertThat(this.platformLookups).hasValue(0);
	}

	@Test
	void thePlatformsAnswerIsStripped() {
		ProjectIdResolver resolver = new ProjectIdResolver(this.environment, () -> "\tplatform ", () -> null);

		assertThat(resolver.find()).contains("platform");
	}

	@Test
	void nothingAnywhereIsEmptyNotAFailure() {
		ProjectIdResolver resolver = new ProjectIdResolver(this.environment, () -> null, () -> null);

		assertThat(resolver.find()).isEmpty();
	}

	@Test
	void theMissingProjectSaysEveryWayToSetIt() {
		ModelArmorConfigurationException missing = ProjectIdResolver.missing();

		assertThat(missing.property()).isEqualTo("modelarmor.project-id");
		assertThat(missing.problem()).isEqualTo("no Google Cloud project id is configured");
		assertThat(missing.action()).isEqualTo("Set modelarmor.project-id, or spring.cloud.gcp.project-id, or the "
				+ "GOOGLE_CLOUD_PROJECT environment variable, or use credentials that carry a project "
				+ "(a service-account key's project_id)");
		assertThat(missing).hasMessage("modelarmor.project-id: no Google Cloud project id is configured. "
				+ missing.action());
	}

	private void set(String name, String value) {
		if (!"-".equals(value)) {
			this.environment.setProperty(name, "_".equals(value) ? "   " : value);
		}
	}

	private static @Nullable String value(String cell) {
		return switch (cell) {
			case "-" -> null;
			case "_" -> "  ";
			default -> cell;
		};
	}

	private static GoogleCredentials credentialsWithProject(@Nullable String projectId) {
		GoogleCredentials credentials = Mockito.mock(GoogleCredentials.class);
		Mockito.when(credentials.getProjectId()).thenReturn(projectId);
		return credentials;
	}

}
