package dev.modelarmor.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link GoogleCredentialsLoader#forModelArmor}: credentials from any source (an application's bean,
 * spring-cloud-gcp) are scoped and given the quota project on copies, never changed themselves.
 */
class ForModelArmorTests {

	private static final String TOKEN_URI = "http://127.0.0.1:1/token";

	private final GoogleCredentialsLoader loader = new GoogleCredentialsLoader(() -> {
		throw new AssertionError("Application Default Credentials must not be looked up");
	});

	@Test
	void credentialsThatNeedScopesAreScopedOnACopy() {
		GoogleCredentials unscoped = this.loader.load(new ByteArrayResource(TestServiceAccount.create(TOKEN_URI).bytes()));
		assertThat(unscoped.createScopedRequired()).isTrue();

		GoogleCredentials prepared = GoogleCredentialsLoader.forModelArmor(unscoped, null);

		assertThat(prepared).isNotSameAs(unscoped);
		assertThat(((ServiceAccountCredentials) prepared).getScopes())
			.containsExactly(GoogleCredentialsLoader.CLOUD_PLATFORM_SCOPE);
		assertThat(unscoped.createScopedRequired()).isTrue();
		assertThat(((ServiceAccountCredentials) unscoped).getScopes()).isEmpty();
	}

	@Test
	void credentialsThatAreReadyAreUsedAsTheyAre() {
		GoogleCredentials ready = token();

		assertThat(GoogleCredentialsLoader.forModelArmor(ready, null)).isSameAs(ready);
		assertThat(GoogleCredentialsLoader.forModelArmor(ready, " \t")).isSameAs(ready);
	}

	@Test
	void theQuotaProjectGoesOnACopyStripped() {
		GoogleCredentials ready = token();

		GoogleCredentials prepared = GoogleCredentialsLoader.forModelArmor(ready, " billing ");

		assertThat(prepared).isNotSameAs(ready);
		assertThat(prepared.getQuotaProjectId()).isEqualTo("billing");
		assertThat(ready.getQuotaProjectId()).isNull();
	}

	@Test
	void scopesOfTheirOwnAreKept() {
		GoogleCredentials scoped = this.loader
			.load(new ByteArrayResource(TestServiceAccount.create(TOKEN_URI).bytes()))
			.createScoped(List.of("https://www.googleapis.com/auth/cloud-platform.read-only"));

		GoogleCredentials prepared = GoogleCredentialsLoader.forModelArmor(scoped, null);

		assertThat(prepared).isSameAs(scoped);
	}

	@Test
	void applicationDefaultCredentialsAreAnsweredAsTheyAre() {
		GoogleCredentials adc = token();
		GoogleCredentialsLoader adcLoader = new GoogleCredentialsLoader(() -> adc);

		assertThat(adcLoader.applicationDefault()).isSameAs(adc);
	}

	private static GoogleCredentials token() {
		return GoogleCredentials.create(new AccessToken("ya29.ready", Date.from(Instant.now().plus(Duration.ofHours(1)))));
	}

}
