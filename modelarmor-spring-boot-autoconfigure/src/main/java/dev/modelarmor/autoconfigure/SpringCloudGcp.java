package dev.modelarmor.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import dev.modelarmor.auth.ProjectIdResolver;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The credentials and project id providers of spring-cloud-gcp's core module, when it is on the class
 * path and its beans exist, so that an application that configures Google once (spring.cloud.gcp.*) has
 * Model Armor follow.
 *
 * <p>Called by name, not compiled against: the starter must not depend on spring-cloud-gcp (nor on gax,
 * whose {@code CredentialsProvider} is the type of spring-cloud-gcp's {@code googleCredentials} bean). The
 * beans are looked up when the client is created, not by a condition, so that it does not matter whether
 * spring-cloud-gcp's auto-configuration runs before or after this starter's.
 */
final class SpringCloudGcp {

	/** A type of spring-cloud-gcp-core itself: its presence says that spring-cloud-gcp is in use. */
	static final String PROJECT_ID_PROVIDER = "com.google.cloud.spring.core.GcpProjectIdProvider";

	/** The type of spring-cloud-gcp's {@code googleCredentials} bean (gax's, which spring-cloud-gcp implements). */
	static final String CREDENTIALS_PROVIDER = "com.google.api.gax.core.CredentialsProvider";

	private static final String ACTION = "Fix spring.cloud.gcp.credentials.*, or set "
			+ GoogleCredentialsLoader.LOCATION_PROPERTY + ", or define a ModelArmorCredentialsProvider bean";

	private final ListableBeanFactory beanFactory;

	private final @Nullable ClassLoader classLoader;

	SpringCloudGcp(ListableBeanFactory beanFactory, @Nullable ClassLoader classLoader) {
		this.beanFactory = beanFactory;
		this.classLoader = classLoader;
	}

	/**
	 * spring-cloud-gcp's credentials, when it is on the class path and a single credentials provider bean
	 * exists and supplies some.
	 * @return the credentials, or {@code null} when spring-cloud-gcp supplies none
	 * @throws ModelArmorConfigurationException when its provider fails, or supplies credentials that are not
	 * {@link GoogleCredentials}
	 */
	@Nullable GoogleCredentials credentials() {
		Object credentials = call(CREDENTIALS_PROVIDER, "getCredentials", GoogleCredentialsLoader.LOCATION_PROPERTY,
				"its CredentialsProvider bean could not supply credentials", ACTION);
		if (credentials == null) {
			// gax's NoCredentialsProvider (emulators): nothing for Model Armor, which has no emulator.
			return null;
		}
		if (credentials instanceof GoogleCredentials google) {
			return google;
		}
		throw new ModelArmorConfigurationException(GoogleCredentialsLoader.LOCATION_PROPERTY,
				"spring-cloud-gcp's CredentialsProvider bean supplies " + simpleName(credentials)
						+ ", not GoogleCredentials",
				ACTION);
	}

	/**
	 * spring-cloud-gcp's project id, when it is on the class path and a single project id provider bean
	 * exists.
	 * @return the project id, or {@code null} when spring-cloud-gcp knows none
	 */
	@Nullable String projectId() {
		Object projectId = call(PROJECT_ID_PROVIDER, "getProjectId", ProjectIdResolver.PROJECT_ID_PROPERTY,
				"its GcpProjectIdProvider bean failed", "Fix spring-cloud-gcp's project id, or set "
						+ ProjectIdResolver.PROJECT_ID_PROPERTY);
		return (projectId instanceof String value) ? value : null;
	}

	/**
	 * Calls the one method of a spring-cloud-gcp provider bean, through its interface.
	 * @return what it answers, or {@code null} when spring-cloud-gcp is absent or no single bean of the type exists
	 */
	private @Nullable Object call(String typeName, String methodName, String property, String problem, String action) {
		if (!ClassUtils.isPresent(PROJECT_ID_PROVIDER, this.classLoader)
				|| !ClassUtils.isPresent(typeName, this.classLoader)) {
			return null;
		}
		Class<?> type = ClassUtils.resolveClassName(typeName, this.classLoader);
		Object provider = this.beanFactory.getBeanProvider(type).getIfUnique();
		if (provider == null) {
			return null;
		}
		try {
			Method method = type.getMethod(methodName);
			return method.invoke(provider);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			// Its message may quote a key file or a token endpoint's answer: kept in the cause only.
			throw new ModelArmorConfigurationException(property,
					"spring-cloud-gcp is on the class path but " + problem + " (" + simpleName(cause) + ")", action,
					cause);
		}
		catch (ReflectiveOperationException ex) {
			throw new ModelArmorConfigurationException(property,
					"spring-cloud-gcp is on the class path but " + problem + " (" + simpleName(ex) + ")", action, ex);
		}
	}

	private static String simpleName(Object object) {
		return object.getClass().getSimpleName();
	}

}
