package dev.modelarmor.guard;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching the guard off, alone or with the whole starter, leaves guarded methods unscreened.
 */
class GuardDisabledTests {

	static final String QUESTION = "Is anyone listening?";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(Echo.class);

	@BeforeEach
	void answerClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void guardEnabledByDefaultScreens() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorGuardPostProcessor.class);
			context.getBean(EchoService.class).echo(QUESTION);
		});
		assertThat(modelArmor.getAllServeEvents()).hasSize(2);
	}

	@Test
	void guardDisabledLeavesGuardedMethodsUnscreened() {
		this.runner.withPropertyValues("modelarmor.guard.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ModelArmorGuardPostProcessor.class);
			EchoService echo = context.getBean(EchoService.class);
			assertThat(AopUtils.isAopProxy(echo)).isFalse();
			assertThat(echo.echo(QUESTION)).isEqualTo(QUESTION);
		});
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void starterDisabledLeavesGuardedMethodsUnscreened() {
		this.runner.withPropertyValues("modelarmor.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ModelArmorGuardPostProcessor.class);
			EchoService echo = context.getBean(EchoService.class);
			assertThat(AopUtils.isAopProxy(echo)).isFalse();
			assertThat(echo.echo(QUESTION)).isEqualTo(QUESTION);
		});
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Configuration(proxyBeanMethods = false)
	static class Echo {

		@Bean
		EchoService echoService() {
			return new EchoService();
		}

	}

	static class EchoService {

		@ModelArmorGuarded
		public String echo(String text) {
			return text;
		}

	}

}
