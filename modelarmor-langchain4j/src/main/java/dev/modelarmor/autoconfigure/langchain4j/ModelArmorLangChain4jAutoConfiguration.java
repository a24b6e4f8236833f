package dev.modelarmor.autoconfigure.langchain4j;

import dev.langchain4j.guardrail.InputGuardrail;
import dev.langchain4j.rag.content.aggregator.DefaultContentAggregator;
import dev.modelarmor.autoconfigure.ModelArmorCacheAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.langchain4j.ModelArmorContentAggregator;
import dev.modelarmor.langchain4j.ModelArmorInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorModerationModel;
import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration of the LangChain4j integration: with LangChain4j on the class path, the guardrails, the
 * content aggregator and the moderation model as beans over the starter's {@link ModelArmorScreening}, each
 * replaced by an application's own bean of its type. An application hands them to its AI services
 * ({@code AiServices.builder(..).inputGuardrails(..)} and so on). Unless {@code modelarmor.langchain4j.template} is
 * set, each screens with the template the tenant resolver chooses for the call's tenant
 * ({@code modelarmor.langchain4j.tenant-source}). The template it names is among the templates in use: read at
 * start-up by the template check and shown by the meters' {@code template} tag.
 */
@AutoConfiguration(after = { ModelArmorGuardAutoConfiguration.class, ModelArmorObservationAutoConfiguration.class,
		ModelArmorCacheAutoConfiguration.class })
@ConditionalOnClass(InputGuardrail.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnBean(ModelArmorScreening.class)
@EnableConfigurationProperties(ModelArmorLangChain4jProperties.class)
public final class ModelArmorLangChain4jAutoConfiguration {

	private static final String TEMPLATE = "modelarmor.langchain4j.template";

	/** Among the templates in use: read by the start-up template check, a value of the meters' template tag. */
	@Bean
	NamedTemplates modelArmorLangChain4jTemplates(ModelArmorLangChain4jProperties properties) {
		return NamedTemplates.of(TEMPLATE, template(properties));
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorInputGuardrail modelArmorInputGuardrail(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties) {
		return new ModelArmorInputGuardrail(modelArmorScreening, template(properties),
				properties.getInput().getOnMatch(), properties.getTenantSource());
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorOutputGuardrail modelArmorOutputGuardrail(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties) {
		return new ModelArmorOutputGuardrail(modelArmorScreening, template(properties),
				properties.getOutput().getOnMatch(), properties.getTenantSource());
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorToolInputGuardrail modelArmorToolInputGuardrail(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties, ObjectProvider<ModelArmorToolOutputGuardrail> specifications) {
		return new ModelArmorToolInputGuardrail(modelArmorScreening, template(properties), MatchAction.BLOCK,
				specifications.getIfUnique(), properties.getTenantSource());
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorToolOutputGuardrail modelArmorToolOutputGuardrail(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties) {
		return new ModelArmorToolOutputGuardrail(modelArmorScreening, template(properties),
				properties.getTools().getRefusal(), properties.getTenantSource());
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorContentAggregator modelArmorContentAggregator(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties) {
		return new ModelArmorContentAggregator(new DefaultContentAggregator(), modelArmorScreening,
				template(properties), properties.getTenantSource());
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorModerationModel modelArmorModerationModel(ModelArmorScreening modelArmorScreening,
			ModelArmorLangChain4jProperties properties) {
		return new ModelArmorModerationModel(modelArmorScreening, template(properties));
	}

	private static @Nullable String template(ModelArmorLangChain4jProperties properties) {
		return StringUtils.hasText(properties.getTemplate()) ? properties.getTemplate() : null;
	}

}
