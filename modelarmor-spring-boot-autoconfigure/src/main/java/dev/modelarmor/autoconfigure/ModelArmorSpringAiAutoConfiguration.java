package dev.modelarmor.autoconfigure;

import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.document.ModelArmorDocumentPostProcessor;
import dev.modelarmor.ai.document.ModelArmorDocumentScreener;
import dev.modelarmor.ai.tool.ModelArmorToolScreener;
import dev.modelarmor.ai.advisor.PromptVerdictToolCallingManager;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.screening.ModelArmorScreening;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.document.Document;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.rag.postretrieval.document.DocumentPostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the Spring AI integration ({@code modelarmor-spring-ai}, which the application adds):
 * with Spring AI's {@link ChatClient} on the class path
 * and {@code modelarmor.spring-ai.advisor.enabled=true}, a {@link ModelArmorAdvisor} and a
 * {@link ChatClientBuilderCustomizer} that adds it to every {@code ChatClient.Builder} that Spring AI's
 * auto-configuration hands out. An application's own {@code ModelArmorAdvisor} bean replaces the
 * auto-configured one and is added instead. With
 * {@code modelarmor.spring-ai.advisor.parallel-prompt-screening=true}, the advisor screens prompts on the
 * starter's bounded {@code ModelArmorTaskExecutor} while the model starts, and the application's {@code ToolCallingManager} is wrapped
 * in a {@link PromptVerdictToolCallingManager}, so that no tool runs before its prompt's verdict.
 *
 * <p>With {@code modelarmor.spring-ai.documents.enabled=true}, a {@link ModelArmorDocumentScreener} and,
 * with spring-ai-rag on the class path, a {@link ModelArmorDocumentPostProcessor} for retrieved documents.
 * With {@code modelarmor.spring-ai.tools.enabled=true}, a {@link ModelArmorToolScreener} and a bean
 * post-processor that wraps the application's {@code ToolCallingManager} and {@code ToolCallbackResolver},
 * so that every tool Spring AI runs is screened.
 */
@AutoConfiguration(after = { ModelArmorAutoConfiguration.class, ModelArmorObservationAutoConfiguration.class },
		beforeName = "org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration")
@ConditionalOnClass(ModelArmorAdvisor.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorScreeningConfiguration.class })
@EnableConfigurationProperties({ ModelArmorSpringAiProperties.class, ModelArmorScreeningProperties.class })
public final class ModelArmorSpringAiAutoConfiguration {

	/** Validated at startup whichever integration is enabled, and read by the template check. */
	@Bean
	NamedTemplates modelArmorSpringAiTemplates(ModelArmorSpringAiProperties properties) {
		return SpringAiSettingsMapper.templates(properties);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ChatClient.class)
	@ConditionalOnBooleanProperty("modelarmor.spring-ai.advisor.enabled")
	static class ChatClientAdvisorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorAdvisor modelArmorAdvisor(ModelArmorScreening modelArmorScreening,
				ModelArmorSpringAiProperties properties) {
			return new ModelArmorAdvisor(modelArmorScreening, SpringAiSettingsMapper.advisorTemplate(properties),
					SpringAiSettingsMapper.advisor(properties.getAdvisor()));
		}

		/** Tools wait for the verdict of a prompt screened while the model runs. */
		@Bean
		@ConditionalOnClass(ToolCallingManager.class)
		@ConditionalOnBooleanProperty("modelarmor.spring-ai.advisor.parallel-prompt-screening")
		static BeanPostProcessor modelArmorPromptVerdictToolsPostProcessor() {
			return new PromptVerdictToolsPostProcessor();
		}

		@Bean
		ChatClientBuilderCustomizer modelArmorChatClientCustomizer(ModelArmorAdvisor modelArmorAdvisor) {
			return (builder) -> builder.defaultAdvisors(modelArmorAdvisor);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Document.class)
	@ConditionalOnBooleanProperty("modelarmor.spring-ai.documents.enabled")
	static class DocumentScreeningConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorDocumentScreener modelArmorDocumentScreener(ModelArmorScreening modelArmorScreening,
				ModelArmorSpringAiProperties properties) {
			return new ModelArmorDocumentScreener(modelArmorScreening,
					SpringAiSettingsMapper.documentsTemplate(properties),
					SpringAiSettingsMapper.documents(properties.getDocuments()));
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(DocumentPostProcessor.class)
		static class RetrievalAugmentationConfiguration {

			@Bean
			@ConditionalOnMissingBean
			ModelArmorDocumentPostProcessor modelArmorDocumentPostProcessor(ModelArmorDocumentScreener screener) {
				return new ModelArmorDocumentPostProcessor(screener);
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ToolCallingManager.class)
	@ConditionalOnBooleanProperty("modelarmor.spring-ai.tools.enabled")
	static class ToolScreeningConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorToolScreener modelArmorToolScreener(ModelArmorScreening modelArmorScreening,
				ModelArmorSpringAiProperties properties, ModelArmorSettings settings) {
			return new ModelArmorToolScreener(modelArmorScreening, SpringAiSettingsMapper.toolsTemplate(properties),
					SpringAiSettingsMapper.tools(properties.getTools()), settings.failOpen());
		}

		@Bean
		static ModelArmorToolsPostProcessor modelArmorToolsPostProcessor(
				ObjectProvider<ModelArmorToolScreener> modelArmorToolScreener) {
			return new ModelArmorToolsPostProcessor(modelArmorToolScreener);
		}

	}

	/**
	 * Wraps the application's {@link ToolCallingManager} beans, so that no tool runs before the verdict on
	 * its prompt when the prompt is screened while the model runs.
	 */
	static final class PromptVerdictToolsPostProcessor implements BeanPostProcessor {

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (bean instanceof ToolCallingManager manager && !(bean instanceof PromptVerdictToolCallingManager)) {
				return new PromptVerdictToolCallingManager(manager);
			}
			return bean;
		}

	}

}
