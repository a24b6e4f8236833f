package dev.modelarmor.autoconfigure;

import dev.modelarmor.ai.moderation.ModelArmorSpringAiModerationModel;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.screening.ModelArmorScreening;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.moderation.ModerationModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of Spring AI's moderation API over Model Armor: with Spring AI's model module and
 * {@code modelarmor-spring-ai} on the class path, a {@link ModelArmorSpringAiModerationModel} as the application's
 * {@link ModerationModel}, unless it has one of its own (or Spring AI's OpenAI or Mistral AI moderation model is
 * auto-configured) or {@code modelarmor.spring-ai.moderation.enabled=false}.
 */
// after Spring AI's own moderation models, so that one the application chose is never doubled by this one
@AutoConfiguration(after = { ModelArmorAutoConfiguration.class, ModelArmorObservationAutoConfiguration.class },
		afterName = { "org.springframework.ai.model.openai.autoconfigure.OpenAiModerationAutoConfiguration",
				"org.springframework.ai.model.mistralai.autoconfigure.MistralAiModerationAutoConfiguration" })
@ConditionalOnClass({ ModerationModel.class, ModelArmorSpringAiModerationModel.class })
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "modelarmor.spring-ai.moderation.enabled", matchIfMissing = true)
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorScreeningConfiguration.class })
@EnableConfigurationProperties({ ModelArmorSpringAiModerationProperties.class, ModelArmorScreeningProperties.class })
public final class ModelArmorSpringAiModerationAutoConfiguration {

	private static final String TEMPLATE = "modelarmor.spring-ai.moderation.template";

	/** Validated at startup, and read by the template check. */
	@Bean
	NamedTemplates modelArmorModerationTemplates(ModelArmorSpringAiModerationProperties properties) {
		return NamedTemplates.of(TEMPLATE, template(properties));
	}

	@Bean
	@ConditionalOnMissingBean(ModerationModel.class)
	ModelArmorSpringAiModerationModel modelArmorSpringAiModerationModel(ModelArmorScreening modelArmorScreening,
			ModelArmorSpringAiModerationProperties properties) {
		return new ModelArmorSpringAiModerationModel(modelArmorScreening, template(properties));
	}

	private static @Nullable String template(ModelArmorSpringAiModerationProperties properties) {
		String template = properties.getTemplate();
		PropertyValues.requireNotBlankTemplate(TEMPLATE, template);
		return (template != null && !template.isEmpty()) ? template : null;
	}

}
