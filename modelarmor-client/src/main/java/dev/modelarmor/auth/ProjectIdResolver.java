package dev.modelarmor.auth;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertyResolver;
import org.springframework.lang.Contract;

/**
 * Finds the Google Cloud project that Model Armor calls go to. The first non-blank value wins:
 * <ol>
 * <li>{@code modelarmor.project-id}</li>
 * <li>the platform's project id provider, when there is one: spring-cloud-gcp's {@code GcpProjectIdProvider}
 * bean, so that an application configures its project once (that provider itself reads
 * {@code spring.cloud.gcp.project-id} first)</li>
 * <li>{@code spring.cloud.gcp.project-id}</li>
 * <li>{@code GOOGLE_CLOUD_PROJECT} (an environment variable, or any property of that name)</li>
 * <li>the project of the credentials, e.g. a service-account key's {@code project_id}</li>
 * </ol>
 */
public final class ProjectIdResolver {

	/** The property that sets the project explicitly. */
	public static final String PROJECT_ID_PROPERTY = "modelarmor.project-id";

	/** The project property of Spring Cloud GCP, honoured for applications that already set it. */
	public static final String SPRING_CLOUD_GCP_PROJECT_ID_PROPERTY = "spring.cloud.gcp.project-id";

	/** The environment variable that Google Cloud tools and runtimes use for the project. */
	public static final String GOOGLE_CLOUD_PROJECT_VARIABLE = "GOOGLE_CLOUD_PROJECT";

	/** Read after the explicit property and the platform's provider. */
	private static final List<String> PROPERTIES = List.of(SPRING_CLOUD_GCP_PROJECT_ID_PROPERTY,
			GOOGLE_CLOUD_PROJECT_VARIABLE);

	private static final String MISSING_ACTION = "Set " + PROJECT_ID_PROPERTY + ", or "
			+ SPRING_CLOUD_GCP_PROJECT_ID_PROPERTY + ", or the " + GOOGLE_CLOUD_PROJECT_VARIABLE
			+ " environment variable, or use credentials that carry a project (a service-account key's project_id)";

	private final PropertyResolver properties;

	private final Supplier<? extends @Nullable String> platformProjectId;

	private final Supplier<? extends @Nullable GoogleCredentials> credentials;

	/**
	 * Creates a resolver without a platform project id provider.
	 * @param properties where the properties and environment variables are read, usually the
	 * Spring {@code Environment}
	 * @param credentials the credentials, asked for only when no property names the project;
	 * answers {@code null} when credentials are disabled
	 */
	public ProjectIdResolver(PropertyResolver properties, Supplier<? extends @Nullable GoogleCredentials> credentials) {
		this(properties, () -> null, credentials);
	}

	/**
	 * Creates a resolver.
	 * @param properties where the properties and environment variables are read, usually the
	 * Spring {@code Environment}
	 * @param platformProjectId the platform's project id (spring-cloud-gcp's), asked for only when
	 * {@value #PROJECT_ID_PROPERTY} is not set; answers {@code null} when it knows none
	 * @param credentials the credentials, asked for only when nothing else names the project;
	 * answers {@code null} when credentials are disabled
	 */
	public ProjectIdResolver(PropertyResolver properties, Supplier<? extends @Nullable String> platformProjectId,
			Supplier<? extends @Nullable GoogleCredentials> credentials) {
		this.properties = properties;
		this.platformProjectId = platformProjectId;
		this.credentials = credentials;
	}

	/**
	 * Finds the project id.
	 * @return the project id, without surrounding blanks, or empty when no source names one
	 */
	public Optional<String> find() {
		String explicit = this.properties.getProperty(PROJECT_ID_PROPERTY);
		if (hasText(explicit)) {
			return Optional.of(explicit.strip());
		}
		String platform = this.platformProjectId.get();
		if (hasText(platform)) {
			return Optional.of(platform.strip());
		}
		for (String name : PROPERTIES) {
			String value = this.properties.getProperty(name);
			if (hasText(value)) {
				return Optional.of(value.strip());
			}
		}
		GoogleCredentials googleCredentials = this.credentials.get();
		String fromCredentials = (googleCredentials != null) ? googleCredentials.getProjectId() : null;
		return hasText(fromCredentials) ? Optional.of(fromCredentials.strip()) : Optional.empty();
	}

	/**
	 * Resolves the project id.
	 * @return the project id, without surrounding blanks
	 * @throws ModelArmorConfigurationException when no source names a project
	 */
	public String resolve() {
		return find().orElseThrow(ProjectIdResolver::missing);
	}

	/**
	 * The failure to report when no source names a project: it names {@value #PROJECT_ID_PROPERTY} and
	 * every way to set the project.
	 * @return the exception, not thrown
	 */
	public static ModelArmorConfigurationException missing() {
		return new ModelArmorConfigurationException(PROJECT_ID_PROPERTY, "no Google Cloud project id is configured",
				MISSING_ACTION);
	}

	@Contract("null -> false")
	private static boolean hasText(@Nullable String value) {
		return value != null && !value.isBlank();
	}

}
