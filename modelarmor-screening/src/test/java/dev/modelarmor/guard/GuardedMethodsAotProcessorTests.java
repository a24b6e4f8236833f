package dev.modelarmor.guard;

import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * At build time, the beans' {@link ModelArmorGuarded @ModelArmorGuarded} methods get the reflection hints
 * their SpEL and parameter names need in a native image, checked with {@link RuntimeHintsPredicates}.
 */
class GuardedMethodsAotProcessorTests {

	@Test
	void aGuardedMethodsParameterAndReturnTypesCanBeReadBySpel() {
		RuntimeHints hints = process(Assistant.class);

		assertThat(RuntimeHintsPredicates.reflection().onType(Assistant.class)).as("the bean's methods, introspected")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Question.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Question.class, "message")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Answer.class, "text"))
			.as("#result of an Optional<Answer>")
			.accepts(hints);
	}

	@Test
	void theTypesOfAMethodThatIsNotGuardedGetNoHint() {
		RuntimeHints hints = process(Assistant.class);

		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Other.class, "value")).rejects(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Other.class)).rejects(hints);
	}

	@Test
	void aClassLevelAnnotationCoversThePublicMethods() {
		RuntimeHints hints = process(GuardedClass.class);

		assertThat(RuntimeHintsPredicates.reflection().onType(GuardedClass.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Answer.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
	}

	@Test
	void anAnnotationOnAnInterfaceMethodCounts() {
		RuntimeHints hints = process(FromInterface.class);

		assertThat(RuntimeHintsPredicates.reflection().onType(Question.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
	}

	@Test
	void aBeanWithoutGuardedMethodsContributesNothing() {
		assertThat(contribution(Other.class)).isNull();
	}

	@Test
	void theProcessorIsRegisteredForSpringAot() {
		assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
			.anyMatch(GuardedMethodsAotProcessor.class::isInstance);
	}

	private static RuntimeHints process(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = contribution(beanClass);
		assertThat(contribution).isNotNull();
		GenerationContext context = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get("com.example", "Test")), new InMemoryGeneratedFiles());
		contribution.applyTo(context, mock(BeanRegistrationCode.class));
		return context.getRuntimeHints();
	}

	private static @Nullable BeanRegistrationAotContribution contribution(Class<?> beanClass) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
		return new GuardedMethodsAotProcessor().processAheadOfTime(RegisteredBean.of(beanFactory, "bean"));
	}

	public record Question(String message) {
	}

	public record Answer(String text) {
	}

	public record Other(String value) {
	}

	public static class Assistant {

		@ModelArmorGuarded(prompt = "#question.message", response = "#result.get().text()")
		public Optional<Answer> ask(Question question) {
			return Optional.of(new Answer(question.message()));
		}

		public Other unscreened(Other other) {
			return other;
		}

	}

	@ModelArmorGuarded(prompt = "#p0.message")
	public static class GuardedClass {

		public Answer first(Question question) {
			return new Answer(question.message());
		}

	}

	public interface Screened {

		@ModelArmorGuarded(prompt = "#p0.message")
		String ask(Question question);

	}

	public static class FromInterface implements Screened {

		@Override
		public String ask(Question question) {
			return question.message();
		}

	}

}
