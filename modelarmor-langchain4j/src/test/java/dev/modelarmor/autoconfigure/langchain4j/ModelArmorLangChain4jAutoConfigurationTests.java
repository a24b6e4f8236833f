package dev.modelarmor.autoconfigure.langchain4j;

import dev.langchain4j.guardrail.InputGuardrail;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.langchain4j.ModelArmorContentAggregator;
import dev.modelarmor.langchain4j.ModelArmorInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorModerationModel;
import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail;
import dev.modelarmor.langchain4j.TenantSource;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.test.ModelArmorStandIn;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Which LangChain4j beans the auto-configuration defines, in real application contexts.
 */
class ModelArmorLangChain4jAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
				ModelArmorLangChain4jAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t", "modelarmor.credentials.enabled=false",
				"modelarmor.endpoint=http://localhost:9", "modelarmor.template-check.enabled=false");

	@Test
	void definesEveryIntegrationOverTheOneScreening() {
		this.runner.run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(ModelArmorScreening.class)
			.hasSingleBean(ModelArmorInputGuardrail.class)
			.hasSingleBean(ModelArmorOutputGuardrail.class)
			.hasSingleBean(ModelArmorToolInputGuardrail.class)
			.hasSingleBean(ModelArmorToolOutputGuardrail.class)
			.hasSingleBean(ModelArmorContentAggregator.class)
			.hasSingleBean(ModelArmorModerationModel.class));
	}

	@Test
	void bindsItsProperties() {
		this.runner
			.withPropertyValues("modelarmor.langchain4j.template=lc4j", "modelarmor.langchain4j.input.on-match=deidentify",
					"modelarmor.langchain4j.output.on-match=reprompt", "modelarmor.langchain4j.tools.refusal=No.")
			.run((context) -> {
				ModelArmorLangChain4jProperties properties = context.getBean(ModelArmorLangChain4jProperties.class);
				assertThat(properties.getTemplate()).isEqualTo("lc4j");
				assertThat(properties.getInput().getOnMatch()).isEqualTo(MatchAction.DEIDENTIFY);
				assertThat(properties.getOutput().getOnMatch()).isEqualTo(ModelArmorOutputGuardrail.OnMatch.REPROMPT);
				assertThat(properties.getTools().getRefusal()).isEqualTo("No.");
				assertThat(properties.getTenantSource()).isEqualTo(TenantSource.INVOCATION_PARAMETER);
			});
		this.runner.withPropertyValues("modelarmor.langchain4j.tenant-source=chat-memory-id")
			.run((context) -> assertThat(context.getBean(ModelArmorLangChain4jProperties.class).getTenantSource())
				.isEqualTo(TenantSource.CHAT_MEMORY_ID));
	}

	@Test
	void anInvalidTenantSourceFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.langchain4j.tenant-source=session")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("modelarmor.langchain4j.tenant-source"));
	}

	@Test
	void anInvalidMatchActionFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.langchain4j.output.on-match=shout")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("shout"));
		this.runner.withPropertyValues("modelarmor.langchain4j.output.on-match=shout")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("modelarmor.langchain4j.output.on-match"));
	}

	@Test
	void anApplicationsOwnBeanReplacesTheAutoConfiguredOne() {
		this.runner.withUserConfiguration(OwnGuardrail.class)
			.run((context) -> assertThat(context).getBean(ModelArmorOutputGuardrail.class)
				.isSameAs(context.getBean("ownOutputGuardrail")));
	}

	@Test
	void definesNothingWithoutLangChain4jOrWhenModelArmorIsOff() {
		this.runner.withClassLoader(new FilteredClassLoader(InputGuardrail.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ModelArmorInputGuardrail.class));
		this.runner.withPropertyValues("modelarmor.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ModelArmorInputGuardrail.class));
	}

	@Test
	void theTemplateIsReadAtStartAndAMissingOneStopsTheStartNamingTheProperty() {
		try (ModelArmorStandIn modelArmor = ModelArmorStandIn.start()) {
			modelArmor.onlyTemplates("t");
			assertThatException().isThrownBy(() -> start(modelArmor).close())
				.withStackTraceContaining("modelarmor.langchain4j.template: names the template 'lc4j', which does "
						+ "not exist in location us-central1");
			modelArmor.onlyTemplates("t", "lc4j");
			try (ConfigurableApplicationContext context = start(modelArmor)) {
				assertThat(context.isRunning()).isTrue();
			}
		}
	}

	@Test
	void theTemplateIsATagValueOfTheMeters() {
		try (ModelArmorStandIn modelArmor = ModelArmorStandIn.start()) {
			this.runner.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class))
				.withBean(SimpleMeterRegistry.class)
				.withPropertyValues("modelarmor.endpoint=" + modelArmor.url(), "modelarmor.langchain4j.template=lc4j")
				.run((context) -> {
					assertThat(context.getBean(ModelArmorModerationModel.class).moderate("hello").content().flagged())
						.isFalse();
					MeterRegistry meters = context.getBean(MeterRegistry.class);
					assertThat(meters.find(MicrometerScreeningObserver.SCREENINGS).counters())
						.extracting((counter) -> counter.getId().getTag("template"))
						.containsOnly("lc4j");
					assertThat(meters.find(MicrometerCallObserver.REQUESTS).timers())
						.extracting((timer) -> timer.getId().getTag("template"))
						.containsOnly("lc4j");
				});
		}
	}

	private static ConfigurableApplicationContext start(ModelArmorStandIn modelArmor) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setLogStartupInfo(false);
		return application.run("--modelarmor.endpoint=" + modelArmor.url(), "--modelarmor.project-id=p",
				"--modelarmor.template-id=t", "--modelarmor.credentials.enabled=false",
				"--modelarmor.langchain4j.template=lc4j", "--spring.main.banner-mode=off");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
			ModelArmorLangChain4jAutoConfiguration.class })
	static class App {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnGuardrail {

		@Bean
		ModelArmorOutputGuardrail ownOutputGuardrail(ModelArmorScreening screening) {
			return new ModelArmorOutputGuardrail(screening, "own", ModelArmorOutputGuardrail.OnMatch.BLOCK);
		}

	}

}
