package dev.modelarmor.auth;

import java.io.IOException;

import com.google.auth.oauth2.GoogleCredentials;

/**
 * Supplies the Google credentials that authorize Model Armor calls. Define a bean of this type to use
 * credentials of your own: workload identity federation, impersonation
 * ({@code ImpersonatedCredentials}), or a {@link GoogleCredentials} your application already has. Without
 * one, the starter reads {@code modelarmor.credentials.location}, then spring-cloud-gcp's credentials,
 * then Application Default Credentials.
 *
 * <p>Why a type of its own rather than a bean of {@link GoogleCredentials}: applications that call other
 * Google APIs often have a {@code GoogleCredentials} bean of their own, with other scopes or another
 * identity. A starter that looked one up would silently call Model Armor as whoever that bean is; one
 * that published one would make the application's own injection points ambiguous, or be injected into
 * them. This type exists only to say "these are the credentials for Model Armor" (the same idea as
 * spring-cloud-gcp's {@code CredentialsProvider}).
 *
 * <p>The credentials are asked for once, at startup. The starter never modifies or closes them: it scopes
 * a copy to {@value GoogleCredentialsLoader#CLOUD_PLATFORM_SCOPE} when they need scopes and attaches
 * {@code modelarmor.credentials.quota-project-id} to a copy when it is set. It does ask them for tokens,
 * and refreshes their token in the background before it expires, which credentials shared with other
 * clients simply share. {@code modelarmor.credentials.enabled=false} wins over this bean: no
 * {@code Authorization} header is sent at all.
 *
 * <pre class="code">
 * &#64;Bean
 * ModelArmorCredentialsProvider modelArmorCredentials(GoogleCredentials workloadIdentity) {
 *     return () -&gt; workloadIdentity;
 * }
 * </pre>
 */
@FunctionalInterface
public interface ModelArmorCredentialsProvider {

	/**
	 * The credentials to authorize Model Armor calls with.
	 * @return the credentials, never {@code null}
	 * @throws IOException when the credentials cannot be obtained; startup fails naming this bean
	 */
	GoogleCredentials getCredentials() throws IOException;

}
