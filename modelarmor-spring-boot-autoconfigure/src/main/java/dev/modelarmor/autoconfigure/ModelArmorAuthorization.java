package dev.modelarmor.autoconfigure;

import java.time.Duration;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.GoogleCredentialsInterceptor;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import org.jspecify.annotations.Nullable;

/**
 * The credentials of the auto-configured template and the interceptor that authorizes its requests
 * with them, both absent when {@code modelarmor.credentials.enabled=false}. A bean of its own (not
 * public, so that no application injects it) so that the context closes the interceptor's token
 * threads; the interceptor itself is no bean, so that no application's {@code RestClient} picks it up
 * and sends the token elsewhere.
 */
final class ModelArmorAuthorization implements AutoCloseable {

	private final @Nullable GoogleCredentials credentials;

	private final @Nullable GoogleCredentialsInterceptor interceptor;

	private ModelArmorAuthorization(@Nullable GoogleCredentials credentials,
			@Nullable GoogleCredentialsInterceptor interceptor) {
		this.credentials = credentials;
		this.interceptor = interceptor;
	}

	/**
	 * Loads the credentials the properties name.
	 * @param credentialsProperties the credentials properties
	 * @param tokenWait how long a request waits for its token at most (the read timeout), or what is left of
	 * its call's deadline when that is shorter
	 * @return the authorization
	 */
	static ModelArmorAuthorization load(ModelArmorProperties.Credentials credentialsProperties, Duration tokenWait) {
		if (!credentialsProperties.isEnabled()) {
			return new ModelArmorAuthorization(null, null);
		}
		GoogleCredentials credentials = new GoogleCredentialsLoader().load(credentialsProperties.getLocation(),
				credentialsProperties.getQuotaProjectId());
		return new ModelArmorAuthorization(credentials,
				new GoogleCredentialsInterceptor(credentials, tokenWait));
	}

	@Nullable GoogleCredentials credentials() {
		return this.credentials;
	}

	@Nullable GoogleCredentialsInterceptor interceptor() {
		return this.interceptor;
	}

	@Override
	public void close() {
		if (this.interceptor != null) {
			this.interceptor.close();
		}
	}

}
