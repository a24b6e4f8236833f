package dev.modelarmor.client;

import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.guard.ModelArmorStubs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The HTTP client that the builder builds, and its executor, end with the template: when the application
 * context closes, or when the template is closed.
 */
@Timeout(60)
class HttpClientLifecycleTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=" + ModelArmorStubs.PROJECT,
				"modelarmor.template-id=" + ModelArmorStubs.DEFAULT_TEMPLATE, "modelarmor.credentials.enabled=false");

	@Test
	void theClientAndItsExecutorAreClosedWhenTheContextCloses() throws Exception {
		ModelArmorStubs.answerEverythingClean(modelArmor);
		DeadlineBoundedRequestFactory[] transport = new DeadlineBoundedRequestFactory[1];
		ModelArmorTemplate[] template = new ModelArmorTemplate[1];
		this.runner.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl()).run((context) -> {
			template[0] = context.getBean(ModelArmorTemplate.class);
			transport[0] = template[0].transport();
			// a call puts the executor to work, so that it has threads to end
			assertThat(template[0].sanitizeUserPrompt("hello").matchFound()).isFalse();
			assertThat(transport[0].isTerminated()).isFalse();
			assertThat(isClosed(transport[0].httpClient())).isNotEqualTo(Boolean.TRUE);
		});
		assertClosed(transport[0]);
		int requests = modelArmor.getAllServeEvents().size();
		assertThatExceptionOfType(ModelArmorException.class)
			.isThrownBy(() -> template[0].sanitizeUserPrompt("after close"))
			.withMessageStartingWith("The Model Armor HTTP client is closed")
			.satisfies((ex) -> assertThat(ex.outcome()).contains(dev.modelarmor.retry.CallOutcome.NON_RETRYABLE));
		assertThat(modelArmor.getAllServeEvents()).hasSize(requests);
	}

	@Test
	void aTemplateBuiltWithoutSpringIsClosedByItsOwnerAndItsDerivedTemplatesShareTheClient() throws Exception {
		ModelArmorStubs.answerEverythingClean(modelArmor);
		ModelArmorTemplate template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.projectId(ModelArmorStubs.PROJECT)
			.templateId(ModelArmorStubs.DEFAULT_TEMPLATE)
			.build();
		ModelArmorTemplate derived = template.withTemplate("other");
		assertThat(derived.transport()).isSameAs(template.transport());
		template.sanitizeUserPrompt("hello");
		template.close();
		assertClosed(template.transport());
		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> derived.sanitizeUserPrompt("hello"))
			.withMessageContaining("client is closed");
		template.close(); // twice is harmless
	}

	private static void assertClosed(DeadlineBoundedRequestFactory transport) throws Exception {
		long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!transport.isTerminated() && System.nanoTime() < end) {
			Thread.sleep(20);
		}
		assertThat(transport.isTerminated()).as("executor terminated").isTrue();
		Boolean closed = isClosed(transport.httpClient());
		if (closed != null) {
			assertThat(closed).as("HttpClient terminated (Java 21+)").isTrue();
		}
	}

	/** {@code HttpClient.isTerminated()} on Java 21 and later; {@code null} on Java 17, which has no close. */
	private static Boolean isClosed(HttpClient client) throws Exception {
		Method isTerminated;
		try {
			isTerminated = HttpClient.class.getMethod("isTerminated");
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
		return (Boolean) isTerminated.invoke(client);
	}

}
