package dev.modelarmor.guard;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.ScreeningObserver;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The guard looks up the Model Armor client and the screening observer once, at the first guarded call,
 * not at every call: resolving a bean through its provider cost microseconds per call, far more than
 * the rest of the guard. Both beans are prototypes here, so every lookup would create one more.
 */
class GuardLookupTests {

	static final SanitizationResult NO_MATCH = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND,
			InvocationResult.SUCCESS, Map.of(), null);

	@Test
	void theClientAndTheObserverAreLookedUpAtTheFirstGuardedCallOnly() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ModelArmorGuardAutoConfiguration.class))
			.withUserConfiguration(PrototypeBeans.class)
			.withPropertyValues("modelarmor.template-id=default-template")
			.run((context) -> {
				Chat chat = context.getBean(Chat.class);
				PrototypeBeans beans = context.getBean(PrototypeBeans.class);
				assertThat(beans.clientsCreated).hasValue(0);

				for (int i = 0; i < 3; i++) {
					assertThat(chat.chat("What is the capital of France?")).isEqualTo("Paris");
				}

				assertThat(beans.clientsCreated).hasValue(1);
				assertThat(beans.observersCreated).hasValue(1);
				assertThat(beans.screenings).hasValue(6);
			});
	}

	/** A guarded service: screens its argument and its answer. */
	static class Chat {

		@ModelArmorGuarded
		public String chat(String prompt) {
			return "Paris";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrototypeBeans {

		final AtomicInteger clientsCreated = new AtomicInteger();

		final AtomicInteger observersCreated = new AtomicInteger();

		final AtomicInteger screenings = new AtomicInteger();

		@Bean
		Chat chat() {
			return new Chat();
		}

		@Bean
		@Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
		ModelArmorOperations instantModelArmor() {
			this.clientsCreated.incrementAndGet();
			ModelArmorOperations client = mock(ModelArmorOperations.class);
			given(client.sanitizeUserPrompt(anyString())).willReturn(NO_MATCH);
			given(client.sanitizeModelResponse(anyString(), anyString())).willReturn(NO_MATCH);
			return client;
		}

		@Bean
		@Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
		ScreeningObserver countingObserver() {
			this.observersCreated.incrementAndGet();
			return (phase, template, result, filters) -> this.screenings.incrementAndGet();
		}

	}

}
