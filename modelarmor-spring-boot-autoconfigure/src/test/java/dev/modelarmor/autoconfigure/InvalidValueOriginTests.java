package dev.modelarmor.autoconfigure;

import java.util.HashMap;
import java.util.Map;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A refused value is shown as the application wrote it and named where it was set, as Spring Boot names
 * the origin of a property: the command line, a file and its line, an environment variable.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidValueOriginTests {

	private static final String[] REQUIRED = { "--modelarmor.template-id=t", "--modelarmor.project-id=p",
			"--modelarmor.credentials.enabled=false" };

	@Test
	void aValueFromTheCommandLineIsShownAsWrittenAndNamedAsTheCommandLine() {
		ModelArmorConfigurationException failure = start("--modelarmor.retry.deadline=-1s");
		assertThat(failure.property()).isEqualTo("modelarmor.retry.deadline");
		assertThat(failure.problem()).isEqualTo("the value '-1s' must be positive");
		assertThat(failure.action()).isEqualTo("Change modelarmor.retry.deadline where it is set: "
				+ "\"modelarmor.retry.deadline\" from property source \"commandLineArgs\"");
	}

	@Test
	void aValueFromAFileIsNamedByTheFileAndTheLine() {
		ModelArmorConfigurationException failure = start(
				"--spring.config.location=classpath:dev/modelarmor/autoconfigure/invalid-deadline.properties");
		assertThat(failure.problem()).isEqualTo("the value '-1s' must be positive");
		assertThat(failure.action()).isEqualTo("Change modelarmor.retry.deadline where it is set: class path resource "
				+ "[dev/modelarmor/autoconfigure/invalid-deadline.properties] - 3:27");
	}

	@Test
	void aValueFromAnEnvironmentVariableIsNamedByTheVariable() {
		ModelArmorConfigurationException failure = start(withVariables(Map.of("MODELARMOR_HTTP_READ_TIMEOUT", "-500ms")));
		assertThat(failure.problem()).isEqualTo("the value '-500ms' must be positive");
		assertThat(failure.action()).isEqualTo("Change modelarmor.http.read-timeout where it is set: "
				+ "System Environment Property \"MODELARMOR_HTTP_READ_TIMEOUT\"");
	}

	@Test
	void anEnvironmentVariableWithUnderscoresForDashesIsAPropertyAndAMisspeltOneIsNot() {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setEnvironment(withVariables(Map.of("MODELARMOR_HTTP_READ_TIMEOUT", "5s")));
		String[] args = { REQUIRED[0], REQUIRED[1], REQUIRED[2], "--modelarmor.template-check.enabled=false" };
		try (var context = application.run(args)) {
			assertThat(context.getBean(ModelArmorSettings.class).http().readTimeout()).hasSeconds(5);
		}
		ModelArmorConfigurationException failure = start(withVariables(Map.of("MODELARMOR_HTTP_RAED_TIMEOUT", "5s")));
		assertThat(failure.property()).isEqualTo("modelarmor.http.raed.timeout");
		assertThat(failure.problem()).contains("System Environment Property \"MODELARMOR_HTTP_RAED_TIMEOUT\"");
	}

	private static StandardEnvironment withVariables(Map<String, Object> more) {
		return new StandardEnvironment() {

			@Override
			public Map<String, Object> getSystemEnvironment() {
				Map<String, Object> variables = new HashMap<>(super.getSystemEnvironment());
				variables.putAll(more);
				return variables;
			}

		};
	}

	@Test
	void aPlaceholderIsShownResolved() {
		ModelArmorConfigurationException failure = start("--deadline=-2m", "--modelarmor.retry.deadline=${deadline}");
		assertThat(failure.problem()).isEqualTo("the value '-2m' must be positive");
	}

	@Test
	void aValueWithoutAnEnvironmentIsShownInItsLargestExactUnit() {
		assertThat(new InvalidPropertyValue("modelarmor.retry.deadline", java.time.Duration.ofSeconds(-1), "must be positive")
			.problem()).isEqualTo("the value '-1s' must be positive");
		assertThat(new InvalidPropertyValue("p", java.time.Duration.ofHours(25), "r").problem()).isEqualTo("the value '25h' r");
		assertThat(new InvalidPropertyValue("p", java.time.Duration.ofMillis(1500), "r").problem()).isEqualTo("the value '1500ms' r");
		assertThat(new InvalidPropertyValue("p", java.time.Duration.ZERO, "r").problem()).isEqualTo("the value '0s' r");
		assertThat(new InvalidPropertyValue("p", java.time.Duration.ofNanos(7), "r").problem()).isEqualTo("the value '7ns' r");
	}

	@Test
	void theWarnCopyOfAMisspeltKeyReadsAsASentence(CapturedOutput output) {
		ModelArmorConfigurationException failure = start("--modelarmor.retry.dealine=5s");
		assertThat(failure.getMessage()).contains("did you mean modelarmor.retry.deadline? Rename modelarmor.retry.dealine"
				+ " to modelarmor.retry.deadline")
			.doesNotContain("?.");
		assertThat(output.getOut()).contains(" WARN ", "did you mean modelarmor.retry.deadline? Rename")
			.doesNotContain("deadline?. Rename");
	}

	private static ModelArmorConfigurationException start(String... args) {
		return start(null, args);
	}

	private static ModelArmorConfigurationException start(@Nullable ConfigurableEnvironment environment,
			String... args) {
		SpringApplication application = new SpringApplication(Application.class);
		if (environment != null) {
			application.setEnvironment(environment);
		}
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = new String[REQUIRED.length + args.length];
		System.arraycopy(REQUIRED, 0, all, 0, REQUIRED.length);
		System.arraycopy(args, 0, all, REQUIRED.length, args.length);
		Throwable failure = catchThrowable(() -> application.run(all).close());
		assertThat(NestedExceptionUtils.getRootCause(failure)).isInstanceOf(ModelArmorConfigurationException.class);
		return (ModelArmorConfigurationException) NestedExceptionUtils.getRootCause(failure);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ModelArmorAutoConfiguration.class)
	static class Application {

	}

}
