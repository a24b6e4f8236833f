package dev.modelarmor.autoconfigure;

import dev.modelarmor.ai.ModelArmorAdvisor;
import dev.modelarmor.client.WindowedScreening;
import dev.modelarmor.guard.Screener;
import dev.modelarmor.guard.ScreeningObserver;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.StringUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of the Spring AI integration: with Spring AI's {@link ChatClient} on the class path
 * and {@code modelarmor.spring-ai.advisor.enabled=true}, a {@link ModelArmorAdvisor} and a
 * {@link ChatClientBuilderCustomizer} that adds it to every {@code ChatClient.Builder} that Spring AI's
 * auto-configuration hands out. An application's own {@code ModelArmorAdvisor} bean replaces the
 * auto-configured one and is added instead.
 */
@AutoConfiguration(after = { ModelArmorAutoConfiguration.class, ModelArmorObservationAutoConfiguration.class },
		beforeName = "org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration")
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import(ModelArmorSettingsConfiguration.class)
public final class ModelArmorSpringAiAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ChatClient.class)
	@ConditionalOnBooleanProperty("modelarmor.spring-ai.advisor.enabled")
	static class ChatClientAdvisorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorAdvisor modelArmorAdvisor(WindowedScreening screening, ModelArmorProperties properties,
				ModelArmorSettings settings, ObjectProvider<ScreeningObserver> observer) {
			String template = properties.getSpringAi().getAdvisor().getTemplate();
			WindowedScreening client = StringUtils.hasLength(template) ? screening.withTemplate(template) : screening;
			Screener screener = new Screener(() -> properties.getGuard().isFailOpen(),
					SingletonSupplier.of(() -> observer.getIfAvailable(() -> ScreeningObserver.NONE)));
			return new ModelArmorAdvisor(client, screener, settings.advisor());
		}

		@Bean
		ChatClientBuilderCustomizer modelArmorChatClientCustomizer(ModelArmorAdvisor modelArmorAdvisor) {
			return (builder) -> builder.defaultAdvisors(modelArmorAdvisor);
		}

	}

}
