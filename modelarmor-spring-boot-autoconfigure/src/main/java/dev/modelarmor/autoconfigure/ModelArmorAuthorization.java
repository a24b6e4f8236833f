package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.GoogleCredentialsInterceptor;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.auth.ProjectIdResolver;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertyResolver;

/**
 * Who the auto-configured client calls as, and for which project: the interceptor that authorizes its
 * requests with the credentials (absent when {@code modelarmor.credentials.enabled=false}), the project id
 * and the quota project. A bean of its own (not public, so that no application injects it) so that the
 * context closes the interceptor's token threads; the interceptor itself is no bean, so that no
 * application's {@code RestClient} picks it up and sends the token elsewhere.
 *
 * <p>It is also where the settings the client cannot start without are checked, all of them before any
 * failure: the credentials and the project id, and, when either is missing, the default template id too
 * (the client starts without one: calls and annotations may name their template). So a first start with
 * nothing configured reports every missing setting at once rather than one per restart.
 */
final class ModelArmorAuthorization implements AutoCloseable {

	static final String TEMPLATE_ID_PROPERTY = "modelarmor.template-id";

	private static final Log logger = LogFactory.getLog(ModelArmorAuthorization.class);

	private final @Nullable GoogleCredentialsInterceptor interceptor;

	private final String projectId;

	private final @Nullable String quotaProjectId;

	private ModelArmorAuthorization(@Nullable GoogleCredentialsInterceptor interceptor, String projectId,
			@Nullable String quotaProjectId) {
		this.interceptor = interceptor;
		this.projectId = projectId;
		this.quotaProjectId = quotaProjectId;
	}

	/**
	 * Obtains the credentials and resolves the project id; starts fetching tokens only when both are there.
	 * @param properties the starter's properties
	 * @param tokenWait how long a request waits for its token at most (the read timeout), or what is left of
	 * its call's deadline when that is shorter
	 * @param provider supplies the credentials unless they are disabled
	 * @param environment where the project id properties are read
	 * @param platformProjectId spring-cloud-gcp's project id, or {@code null}
	 * @return the authorization
	 * @throws ModelArmorConfigurationException naming every setting that is missing or invalid
	 */
	static ModelArmorAuthorization resolve(ModelArmorProperties properties, Duration tokenWait,
			ModelArmorCredentialsProvider provider, PropertyResolver environment,
			Supplier<? extends @Nullable String> platformProjectId) {
		return resolve(properties, tokenWait, provider, environment, platformProjectId, List::of, false);
	}

	/**
	 * Obtains the credentials and resolves the project id; starts fetching tokens only when both are there.
	 * @param properties the starter's properties
	 * @param tokenWait how long a request waits for its token at most (the read timeout), or what is left of
	 * its call's deadline when that is shorter
	 * @param provider supplies the credentials unless they are disabled
	 * @param environment where the project id properties are read
	 * @param platformProjectId spring-cloud-gcp's project id, or {@code null}
	 * @param laterProblems the problems of the parts of the configuration after this one, reported with
	 * this one's when it fails
	 * @param virtualThreads whether tokens are fetched on virtual threads
	 * @return the authorization
	 * @throws ModelArmorConfigurationException naming every setting that is missing or invalid
	 */
	static ModelArmorAuthorization resolve(ModelArmorProperties properties, Duration tokenWait,
			ModelArmorCredentialsProvider provider, PropertyResolver environment,
			Supplier<? extends @Nullable String> platformProjectId,
			Supplier<List<ModelArmorConfigurationException>> laterProblems, boolean virtualThreads) {
		Inspection inspection = inspect(properties, provider, environment, platformProjectId);
		if (!inspection.problems().isEmpty()) {
			List<ModelArmorConfigurationException> problems = new ArrayList<>(inspection.problems());
			problems.addAll(laterProblems.get());
			ModelArmorConfigurationProblems.throwIfAny(problems);
		}
		ModelArmorProperties.Credentials credentialsProperties = properties.getCredentials();
		CredentialsSource.Found found = inspection.found();
		GoogleCredentials credentials = inspection.credentials();
		CredentialsSource source = (found != null) ? found.source() : CredentialsSource.DISABLED;
		logger.info("Model Armor client: credentials=" + source.tag() + " tokenWait=" + tokenWait.toMillis() + "ms");
		String quotaProjectId = credentialsProperties.getQuotaProjectId();
		return new ModelArmorAuthorization(
				(credentials != null) ? new GoogleCredentialsInterceptor(credentials, tokenWait, virtualThreads) : null,
				inspection.projectId().orElseThrow(),
				(quotaProjectId != null && !quotaProjectId.isBlank()) ? quotaProjectId.strip() : null);
	}

	/**
	 * What the client cannot start without, without starting anything: for a report that another part of
	 * the configuration fails first.
	 * @param properties the starter's properties
	 * @param provider supplies the credentials unless they are disabled
	 * @param environment where the project id properties are read
	 * @param platformProjectId spring-cloud-gcp's project id, or {@code null}
	 * @return every setting that is missing or invalid, in the order of the report
	 */
	static List<ModelArmorConfigurationException> problems(ModelArmorProperties properties,
			ModelArmorCredentialsProvider provider, PropertyResolver environment,
			Supplier<? extends @Nullable String> platformProjectId) {
		return inspect(properties, provider, environment, platformProjectId).problems();
	}

	private static Inspection inspect(ModelArmorProperties properties, ModelArmorCredentialsProvider provider,
			PropertyResolver environment, Supplier<? extends @Nullable String> platformProjectId) {
		List<ModelArmorConfigurationException> problems = new ArrayList<>();
		ModelArmorProperties.Credentials credentialsProperties = properties.getCredentials();
		CredentialsSource.Found found = null;
		if (credentialsProperties.isEnabled()) {
			try {
				found = find(provider);
			}
			catch (ModelArmorConfigurationException ex) {
				problems.add(ex);
			}
		}
		GoogleCredentials credentials = (found != null)
				? GoogleCredentialsLoader.forModelArmor(found.credentials(), credentialsProperties.getQuotaProjectId())
				: null;
		Optional<String> projectId = Optional.empty();
		try {
			projectId = new ProjectIdResolver(environment, platformProjectId, () -> credentials).find();
			if (projectId.isEmpty()) {
				problems.add(ProjectIdResolver.missing());
			}
		}
		catch (ModelArmorConfigurationException ex) {
			problems.add(ex);
		}
		// Without a default template the client still starts (calls and annotations may name theirs); when it
		// cannot start anyway, the report says so too, so a first start learns everything at once.
		// A blank one is reported by ModelArmorSettings as blank.
		if (!problems.isEmpty() && properties.getTemplateId() == null) {
			problems.add(0, new ModelArmorConfigurationException(TEMPLATE_ID_PROPERTY, "no default template is set",
					"Set " + TEMPLATE_ID_PROPERTY + " to the id of the Model Armor template to screen with, unless "
							+ "every call and annotation names its template"));
		}
		return new Inspection(found, credentials, projectId, problems);
	}

	/** What the credentials and project lookups found, and what they did not. */
	private record Inspection(CredentialsSource.@Nullable Found found, @Nullable GoogleCredentials credentials,
			Optional<String> projectId, List<ModelArmorConfigurationException> problems) {
	}

	private static CredentialsSource.Found find(ModelArmorCredentialsProvider provider) {
		if (provider instanceof DefaultModelArmorCredentialsProvider defaults) {
			return defaults.find();
		}
		String what = "the ModelArmorCredentialsProvider bean ";
		String action = "Fix the ModelArmorCredentialsProvider bean, or remove it to use "
				+ GoogleCredentialsLoader.LOCATION_PROPERTY + " or Application Default Credentials";
		GoogleCredentials credentials;
		try {
			credentials = provider.getCredentials();
		}
		catch (IOException | RuntimeException ex) {
			// Its message may quote a key file or a token endpoint's answer: kept in the cause only.
			throw new ModelArmorConfigurationException(GoogleCredentialsLoader.LOCATION_PROPERTY,
					what + "could not supply credentials (" + ex.getClass().getSimpleName() + ")", action, ex);
		}
		if (credentials == null) {
			throw new ModelArmorConfigurationException(GoogleCredentialsLoader.LOCATION_PROPERTY,
					what + "supplied no credentials", action);
		}
		return new CredentialsSource.Found(credentials, CredentialsSource.APPLICATION_BEAN);
	}

	@Nullable GoogleCredentialsInterceptor interceptor() {
		return this.interceptor;
	}

	String projectId() {
		return this.projectId;
	}

	/**
	 * {@code modelarmor.credentials.quota-project-id}, sent as a header of its own whether or not credentials
	 * are enabled: credentials made from a fixed access token ({@code GoogleCredentials.create(AccessToken)},
	 * as an application's bean may be) keep the request metadata they were created with, so a quota project
	 * attached to a copy of them never reaches the request. The credentials' own metadata, when it does carry
	 * the header, carries the same value.
	 * @return the quota project, or {@code null} when unset or blank
	 */
	@Nullable String quotaProjectId() {
		return this.quotaProjectId;
	}

	@Override
	public void close() {
		if (this.interceptor != null) {
			this.interceptor.close();
		}
	}

}
