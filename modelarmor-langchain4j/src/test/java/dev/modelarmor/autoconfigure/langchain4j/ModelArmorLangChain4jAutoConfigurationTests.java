package dev.modelarmor.autoconfigure.langchain4j;

import dev.langchain4j.guardrail.InputGuardrail;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.langchain4j.ModelArmorContentAggregator;
import dev.modelarmor.langchain4j.ModelArmorInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorModerationModel;
import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail;
import dev.modelarmor.langchain4j.TenantSource;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

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

	@Configuration(proxyBeanMethods = false)
	static class OwnGuardrail {

		@Bean
		ModelArmorOutputGuardrail ownOutputGuardrail(ModelArmorScreening screening) {
			return new ModelArmorOutputGuardrail(screening, "own", ModelArmorOutputGuardrail.OnMatch.BLOCK);
		}

	}

}
