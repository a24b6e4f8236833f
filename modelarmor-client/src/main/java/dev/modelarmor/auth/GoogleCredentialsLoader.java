package dev.modelarmor.auth;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import com.google.auth.oauth2.GoogleCredentials;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.Resource;

/**
 * Loads the Google credentials that authorize Model Armor calls: from a credentials JSON
 * resource ({@code modelarmor.credentials.location}) or, when none is given, from Application
 * Default Credentials. The credentials are scoped to {@value #CLOUD_PLATFORM_SCOPE} and carry the
 * quota project when one is configured.
 *
 * <p>Failures become a {@link ModelArmorConfigurationException} that names the resource but never
 * its content, so no private key reaches a log.
 */
public final class GoogleCredentialsLoader {

	/** The only OAuth scope Model Armor needs. */
	public static final String CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

	/** The property that points at a credentials JSON resource. */
	public static final String LOCATION_PROPERTY = "modelarmor.credentials.location";

	private static final String ADC_ACTION = "Run `gcloud auth application-default login`, or set " + LOCATION_PROPERTY
			+ " to a credentials JSON file, or define a ModelArmorCredentialsProvider bean; "
			+ "for a local stand-in only, set modelarmor.credentials.enabled=false";

	private static final String FILE_ACTION = "Set " + LOCATION_PROPERTY
			+ " to a readable Google credentials JSON file (e.g. a service-account key), or unset it to use "
			+ "Application Default Credentials";

	private final Callable<GoogleCredentials> applicationDefaultCredentials;

	/**
	 * Creates a loader that falls back to {@link GoogleCredentials#getApplicationDefault()}.
	 */
	public GoogleCredentialsLoader() {
		this(GoogleCredentials::getApplicationDefault);
	}

	/**
	 * Creates a loader with its own Application Default Credentials lookup, e.g. one that fails
	 * or answers fixed credentials in a test.
	 * @param applicationDefaultCredentials looks up Application Default Credentials; an
	 * {@link IOException} means none were found
	 */
	public GoogleCredentialsLoader(Callable<GoogleCredentials> applicationDefaultCredentials) {
		this.applicationDefaultCredentials = applicationDefaultCredentials;
	}

	/**
	 * Loads, scopes and (optionally) attaches a quota project to the credentials.
	 * @param location the credentials JSON, or {@code null} for Application Default Credentials
	 * @param quotaProjectId the project to bill quota to ({@code x-goog-user-project}), or
	 * {@code null}/blank to keep what the credentials carry
	 * @return credentials ready to authorize Model Armor calls
	 * @throws ModelArmorConfigurationException when the credentials cannot be loaded
	 */
	public GoogleCredentials load(@Nullable Resource location, @Nullable String quotaProjectId) {
		return forModelArmor((location != null) ? load(location) : applicationDefault(), quotaProjectId);
	}

	/**
	 * Loads the credentials of a credentials JSON resource, as they are (not yet scoped).
	 * @param location the credentials JSON
	 * @return the credentials
	 * @throws ModelArmorConfigurationException naming {@value #LOCATION_PROPERTY} when the resource is missing,
	 * unreadable or not a credentials JSON
	 */
	public GoogleCredentials load(Resource location) {
		return fromResource(location);
	}

	/**
	 * Looks up Application Default Credentials, as they are (not yet scoped).
	 * @return the credentials
	 * @throws ModelArmorConfigurationException naming {@value #LOCATION_PROPERTY} when none are found
	 */
	public GoogleCredentials applicationDefault() {
		return fromApplicationDefault();
	}

	/**
	 * The credentials as Model Armor calls need them: scoped to {@value #CLOUD_PLATFORM_SCOPE} when they
	 * need scopes, with the quota project when one is given. Both are copies: the credentials given are
	 * never changed.
	 * @param credentials the credentials, from any source
	 * @param quotaProjectId the project to bill quota to ({@code x-goog-user-project}), or
	 * {@code null}/blank to keep what the credentials carry
	 * @return the credentials to authorize Model Armor calls with
	 */
	public static GoogleCredentials forModelArmor(GoogleCredentials credentials, @Nullable String quotaProjectId) {
		GoogleCredentials prepared = credentials;
		if (prepared.createScopedRequired()) {
			prepared = prepared.createScoped(List.of(CLOUD_PLATFORM_SCOPE));
		}
		if (quotaProjectId != null && !quotaProjectId.isBlank()) {
			prepared = prepared.createWithQuotaProject(quotaProjectId.strip());
		}
		return prepared;
	}

	private GoogleCredentials fromResource(Resource location) {
		String description = location.getDescription();
		byte[] json = read(location, description);
		try (InputStream in = new ByteArrayInputStream(json)) {
			return GoogleCredentials.fromStream(in);
		}
		catch (IOException | RuntimeException ex) {
			// The parser's message may quote the file, so neither it nor the cause is kept.
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY,
					description + " is not a valid Google credentials JSON (" + ex.getClass().getSimpleName() + ")",
					FILE_ACTION);
		}
		finally {
			Arrays.fill(json, (byte) 0);
		}
	}

	private static byte[] read(Resource location, String description) {
		if (!location.exists()) {
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY, description + " does not exist",
					FILE_ACTION);
		}
		try (InputStream in = location.getInputStream()) {
			return in.readAllBytes();
		}
		catch (FileNotFoundException ex) {
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY, description + " does not exist",
					FILE_ACTION, ex);
		}
		catch (IOException ex) {
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY, description + " could not be read",
					FILE_ACTION, ex);
		}
	}

	private GoogleCredentials fromApplicationDefault() {
		try {
			return this.applicationDefaultCredentials.call();
		}
		catch (IOException ex) {
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY,
					"no Application Default Credentials were found", ADC_ACTION, ex);
		}
		catch (Exception ex) {
			throw new ModelArmorConfigurationException(LOCATION_PROPERTY,
					"Application Default Credentials could not be loaded", ADC_ACTION, ex);
		}
	}

}
