package dev.modelarmor.autoconfigure;

import com.google.api.gax.core.CredentialsProvider;
import com.google.cloud.spring.core.GcpProjectIdProvider;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reflective calls to spring-cloud-gcp's providers are allowed in a native image, through the
 * registrars that {@code META-INF/spring/aot.factories} names (as Spring's AOT processing finds them).
 */
class SpringCloudGcpHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	SpringCloudGcpHintsTests() {
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)
			.forEach((registrar) -> registrar.registerHints(this.hints, getClass().getClassLoader()));
	}

	@Test
	void credentialsProviderMethodMayBeInvoked() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(CredentialsProvider.class, "getCredentials"))
			.accepts(this.hints);
	}

	@Test
	void projectIdProviderMethodMayBeInvoked() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(GcpProjectIdProvider.class, "getProjectId"))
			.accepts(this.hints);
	}

	@Test
	void namesMatchWhatTheSeamCalls() {
		assertThat(SpringCloudGcp.CREDENTIALS_PROVIDER).isEqualTo(CredentialsProvider.class.getName());
		assertThat(SpringCloudGcp.PROJECT_ID_PROVIDER).isEqualTo(GcpProjectIdProvider.class.getName());
	}

}
