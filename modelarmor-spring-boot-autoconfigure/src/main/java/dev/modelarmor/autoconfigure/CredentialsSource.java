package dev.modelarmor.autoconfigure;

import java.util.Locale;

import com.google.auth.oauth2.GoogleCredentials;

/**
 * Where the credentials of the auto-configured client come from, as its startup log line names it.
 */
enum CredentialsSource {

	/** {@code modelarmor.credentials.enabled=false}: no Authorization header. */
	DISABLED,

	/** The application's own {@code ModelArmorCredentialsProvider} bean. */
	APPLICATION_BEAN,

	/** {@code modelarmor.credentials.location}. */
	LOCATION,

	/** spring-cloud-gcp's credentials provider. */
	SPRING_CLOUD_GCP,

	/** Application Default Credentials. */
	APPLICATION_DEFAULT;

	/** The value in log lines. */
	String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Credentials and where they came from.
	 *
	 * @param credentials the credentials, as the source supplied them
	 * @param source where they came from
	 */
	record Found(GoogleCredentials credentials, CredentialsSource source) {

	}

}
