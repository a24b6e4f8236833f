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
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where {@link ModelArmorGuarded} can be put: on a class, on a method overriding its class, on an
 * interface (with CGLIB and JDK proxies), and what the proxy cannot see (self-invocation).
 */
class AnnotationPlacementTests {

	static final String TEXT = "Bonjour, comment allez-vous ?";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor);

	@BeforeEach
	void answerClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void classLevelAnnotationGuardsItsPublicMethods() {
		this.runner.withUserConfiguration(ClassLevel.class).run((context) -> {
			context.getBean(GuardedAssistant.class).summarise(TEXT);
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).hasSize(1);
	}

	@Test
	void methodLevelAnnotationOverridesTheClassLevelOne() {
		this.runner.withUserConfiguration(ClassLevel.class).run((context) -> {
			context.getBean(GuardedAssistant.class).translate(TEXT);
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void classLevelAnnotationLeavesNonPublicMethodsUnguarded() {
		this.runner.withUserConfiguration(ClassLevel.class).run((context) -> {
			GuardedAssistant assistant = context.getBean(GuardedAssistant.class);
			assertThat(AopUtils.isCglibProxy(assistant)).isTrue();
			assertThat(assistant.wordCount(TEXT)).isEqualTo(4);
			assertThat(assistant.normalise(TEXT)).isEqualTo(TEXT.strip());
		});
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void interfaceAnnotationIsAppliedThroughAClassProxy() {
		this.runner.withUserConfiguration(InterfaceLevel.class).run((context) -> {
			Translator translator = context.getBean(Translator.class);
			assertThat(AopUtils.isCglibProxy(translator)).isTrue();
			assertThat(context.getBean(EnglishTranslator.class).translate(TEXT)).isEqualTo("Hello, how are you?");
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).hasSize(1);
	}

	@Test
	void interfaceAnnotationIsAppliedThroughAnInterfaceProxy() {
		this.runner.withPropertyValues("spring.aop.proxy-target-class=false")
			.withUserConfiguration(InterfaceLevel.class)
			.run((context) -> {
				Translator translator = context.getBean(Translator.class);
				assertThat(AopUtils.isJdkDynamicProxy(translator)).isTrue();
				assertThat(context).doesNotHaveBean(EnglishTranslator.class);
				assertThat(translator.translate(TEXT)).isEqualTo("Hello, how are you?");
			});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).hasSize(1);
	}

	@Test
	void selfInvocationIsNotScreenedBecauseItBypassesTheProxy() {
		this.runner.withUserConfiguration(SelfCalling.class).run((context) -> {
			SelfCallingAssistant assistant = context.getBean(SelfCallingAssistant.class);
			assertThat(AopUtils.isAopProxy(assistant)).isTrue();
			assertThat(assistant.answerTwice(TEXT)).isEqualTo("answer; answer");
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(2);
			assertThat(modelArmor.getAllServeEvents()).isEmpty();
			assistant.answer(TEXT);
		});
		assertThat(promptRequests(modelArmor)).hasSize(1);
		assertThat(responseRequests(modelArmor)).hasSize(1);
	}

	@Configuration(proxyBeanMethods = false)
	static class ClassLevel {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		GuardedAssistant guardedAssistant(BodyRuns runs) {
			return new GuardedAssistant(runs);
		}

	}

	@ModelArmorGuarded
	static class GuardedAssistant {

		private final BodyRuns runs;

		GuardedAssistant(BodyRuns runs) {
			this.runs = runs;
		}

		public String summarise(String text) {
			this.runs.ran(text);
			return "A greeting.";
		}

		@ModelArmorGuarded(screenResponse = false)
		public String translate(String text) {
			this.runs.ran(text);
			return "Hello, how are you?";
		}

		int wordCount(String text) {
			return text.split(" ").length;
		}

		protected String normalise(String text) {
			return text.strip();
		}

	}

	interface Translator {

		@ModelArmorGuarded
		String translate(String text);

	}

	static class EnglishTranslator implements Translator {

		@Override
		public String translate(String text) {
			return "Hello, how are you?";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InterfaceLevel {

		@Bean
		EnglishTranslator translator() {
			return new EnglishTranslator();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SelfCalling {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		SelfCallingAssistant selfCallingAssistant(BodyRuns runs) {
			return new SelfCallingAssistant(runs);
		}

	}

	static class SelfCallingAssistant {

		private final BodyRuns runs;

		SelfCallingAssistant(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded
		public String answer(String question) {
			this.runs.ran(question);
			return "answer";
		}

		public String answerTwice(String question) {
			return answer(question) + "; " + answer(question);
		}

	}

}
