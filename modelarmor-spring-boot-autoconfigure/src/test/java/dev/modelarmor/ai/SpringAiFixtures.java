package dev.modelarmor.ai;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorSpringAiAutoConfiguration;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application context of the Spring AI tests: the starter's auto-configurations, Spring AI's
 * {@code ChatClient} auto-configuration, a {@link FakeChatModel}, a {@link SimpleMeterRegistry}, retries
 * in virtual time, and WireMock playing Model Armor.
 */
final class SpringAiFixtures {

	private SpringAiFixtures() {
	}

	static ApplicationContextRunner runner(WireMockExtension modelArmor) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
					ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
					ModelArmorSpringAiAutoConfiguration.class, ChatClientAutoConfiguration.class))
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("modelarmor.spring-ai.advisor.enabled=true")
			.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Model.class);
	}

	/**
	 * Spring AI's auto-configured tool calling and {@code ChatClient}, with tool screening on.
	 * @param modelArmor where Model Armor answers
	 * @param model the configuration of the test's chat model
	 * @return the runner
	 */
	static ApplicationContextRunner toolsRunner(WireMockExtension modelArmor, Class<?> model) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
					ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
					ModelArmorSpringAiAutoConfiguration.class, ToolCallingAutoConfiguration.class,
					ChatClientAutoConfiguration.class))
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("modelarmor.spring-ai.tools.enabled=true")
			.withUserConfiguration(ModelArmorStubs.InstantRetries.class, model);
	}

	/**
	 * A client built from the auto-configured {@code ChatClient.Builder}, as an application gets it.
	 * @param context the context
	 * @return the client
	 */
	static ChatClient chatClient(ApplicationContext context) {
		return context.getBean(ChatClient.Builder.class).build();
	}

	/**
	 * How many screenings the context's meter registry counted with these tags.
	 * @param context the context
	 * @param phase the phase tag, e.g. {@code document}
	 * @param result the result tag, e.g. {@code blocked}
	 * @param filter the filter tag, e.g. {@code none}
	 * @return the count
	 */
	static double screenings(ApplicationContext context, String phase, String result, String filter) {
		return context.getBean(MeterRegistry.class)
			.get(MicrometerScreeningObserver.SCREENINGS)
			.tags("phase", phase, "result", result, "filter", filter)
			.counter()
			.count();
	}

	static FakeChatModel model(ApplicationContext context) {
		return context.getBean(FakeChatModel.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class Model {

		@Bean
		FakeChatModel chatModel() {
			return new FakeChatModel();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
