package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.guard.ModelArmorGuarded;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The templates an application names are read once it has started, over real HTTP: a missing one (404) or
 * one the credentials may not read (403) stops the start naming it and where it is named; Model Armor
 * unreachable is a WARN line and the start goes on, within the retry deadline.
 */
@ExtendWith(OutputCaptureExtension.class)
class TemplateCheckTests {

	private static final String TEMPLATES = "/v1/projects/p/locations/us-central1/templates/";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void existingTemplatesStart() {
		exists("t");
		exists("annotated");
		try (ConfigurableApplicationContext context = run()) {
			assertThat(context.isRunning()).isTrue();
		}
		modelArmor.verify(1, anyRequestedFor(urlPathEqualTo(TEMPLATES + "t")));
		modelArmor.verify(1, anyRequestedFor(urlPathEqualTo(TEMPLATES + "annotated")));
	}

	@Test
	void aMissingTemplateStopsTheStartNamingItAndWhereItIsNamed() {
		exists("t");
		answer("annotated", 404, "NOT_FOUND", "Requested entity was not found.");
		FailureAnalysis analysis = failure();
		assertThat(analysis.getDescription()).isEqualTo("Model Armor is not configured correctly: @ModelArmorGuarded on "
				+ "TemplateCheckTests.Chat#ask: names the template 'annotated', which does not exist in location "
				+ "us-central1");
		assertThat(analysis.getAction()).isEqualTo("Create the template annotated in location us-central1 (gcloud "
				+ "model-armor templates create), or name one that exists; modelarmor.template-check.enabled=false "
				+ "skips this check");
	}

	@Test
	void aTemplateTheCredentialsMayNotReadHasItsOwnMessage() {
		answer("t", 403, "PERMISSION_DENIED", "Permission 'modelarmor.templates.get' denied");
		answer("annotated", 404, "NOT_FOUND", "Requested entity was not found.");
		FailureAnalysis analysis = failure();
		assertThat(analysis.getDescription()).isEqualTo("Model Armor is not configured correctly:"
				+ "\n  - modelarmor.template-id: names the template 't', which the application's credentials may not "
				+ "read (HTTP 403)"
				+ "\n  - @ModelArmorGuarded on TemplateCheckTests.Chat#ask: names the template 'annotated', which does "
				+ "not exist in location us-central1");
		assertThat(analysis.getAction()).startsWith("Do each of these:\n  - Grant the application's principal the "
				+ "permission modelarmor.templates.get on the template t (with the permissions to sanitize, e.g. the "
				+ "role roles/modelarmor.user), or set modelarmor.template-check.enabled=false\n  - Create the template "
				+ "annotated");
	}

	@Test
	void modelArmorUnavailableIsAWarningAndTheStartGoesOn(CapturedOutput output) {
		answer("t", 503, "UNAVAILABLE", "The service is currently unavailable.");
		exists("annotated");
		try (ConfigurableApplicationContext context = run("--modelarmor.retry.enabled=false")) {
			assertThat(context.isRunning()).isTrue();
		}
		assertThat(output).contains("Model Armor template could not be checked, the start goes on: template=t "
				+ "namedBy=\"modelarmor.template-id\" reason=\"HTTP 503\"");
	}

	@Test
	void theCheckWaitsNoLongerThanTheRetryDeadline(CapturedOutput output) {
		modelArmor.stubFor(get(anyUrl()).willReturn(okJson("{}").withFixedDelay(20_000)));
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run("--modelarmor.retry.deadline=1s")) {
			assertThat(context.isRunning()).isTrue();
		}
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
		assertThat(output).contains("Model Armor template could not be checked, the start goes on: template=t");
	}

	@Test
	void theCheckCanBeTurnedOff() {
		try (ConfigurableApplicationContext context = run("--modelarmor.template-check.enabled=false")) {
			assertThat(context.isRunning()).isTrue();
		}
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	private static void exists(String template) {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES + template))
			.willReturn(okJson("{\"name\":\"projects/p/locations/us-central1/templates/" + template + "\"}")));
	}

	private static void answer(String template, int status, String name, String message) {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES + template)).willReturn(aResponse().withStatus(status)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\":{\"code\":" + status + ",\"message\":\"" + message + "\",\"status\":\"" + name
					+ "\"}}")));
	}

	private static FailureAnalysis failure() {
		Throwable failure = assertThatException().isThrownBy(TemplateCheckTests::run).actual();
		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		return analysis;
	}

	private static ConfigurableApplicationContext run(String... more) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setLogStartupInfo(false);
		// no logging.level.* here: Spring Boot sets levels in Logback's one context of the JVM and leaves them
		// when the application closes, so a root at WARN would hide the INFO lines later test classes read
		List<String> args = new ArrayList<>(List.of("--modelarmor.endpoint=" + modelArmor.baseUrl(),
				"--modelarmor.project-id=p", "--modelarmor.template-id=t", "--modelarmor.credentials.enabled=false",
				"--spring.main.banner-mode=off"));
		args.addAll(List.of(more));
		return application.run(args.toArray(String[]::new));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class })
	static class App {

		@Bean
		Chat chat() {
			return new Chat();
		}

	}

	static class Chat {

		@ModelArmorGuarded(template = "annotated")
		public String ask(String question) {
			return question;
		}

	}

}
