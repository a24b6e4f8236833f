package dev.modelarmor.autoconfigure;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.auth.GoogleCredentialsLoader;
import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.Resource;

/**
 * The credentials of the starter when the application defines no {@link ModelArmorCredentialsProvider}:
 * the first of
 * <ol>
 * <li>{@code modelarmor.credentials.location}: set for Model Armor alone, so it wins over what the whole
 * application uses, as spring-cloud-gcp's own per-service credentials do;</li>
 * <li>spring-cloud-gcp's credentials, when it is on the class path (the application's Google-wide
 * setting);</li>
 * <li>Application Default Credentials.</li>
 * </ol>
 * Nothing is loaded before the client asks.
 */
final class DefaultModelArmorCredentialsProvider implements ModelArmorCredentialsProvider {

	private final @Nullable Resource location;

	private final SpringCloudGcp springCloudGcp;

	private final GoogleCredentialsLoader loader;

	DefaultModelArmorCredentialsProvider(@Nullable Resource location, SpringCloudGcp springCloudGcp,
			GoogleCredentialsLoader loader) {
		this.location = location;
		this.springCloudGcp = springCloudGcp;
		this.loader = loader;
	}

	/**
	 * The credentials, and where they came from.
	 * @return the credentials and their source
	 * @throws ModelArmorConfigurationException when the chosen source fails, or none supplies credentials
	 */
	CredentialsSource.Found find() {
		if (this.location != null) {
			return new CredentialsSource.Found(this.loader.load(this.location), CredentialsSource.LOCATION);
		}
		GoogleCredentials fromSpringCloudGcp = this.springCloudGcp.credentials();
		if (fromSpringCloudGcp != null) {
			return new CredentialsSource.Found(fromSpringCloudGcp, CredentialsSource.SPRING_CLOUD_GCP);
		}
		return new CredentialsSource.Found(this.loader.applicationDefault(), CredentialsSource.APPLICATION_DEFAULT);
	}

	@Override
	public GoogleCredentials getCredentials() {
		return find().credentials();
	}

}
