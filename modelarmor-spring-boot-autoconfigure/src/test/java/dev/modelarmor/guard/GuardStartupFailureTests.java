package dev.modelarmor.guard;

import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.expression.ParseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded method that cannot be screened fails startup, naming the method, not the first request.
 */
class GuardStartupFailureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.credentials.enabled=false");

	private final ApplicationContextRunner withTemplate = this.runner
		.withPropertyValues("modelarmor.template-id=default-template");

	@Test
	void methodWithoutTextArgumentOrPromptExpressionFailsStartup() {
		this.withTemplate.withUserConfiguration(NoTextArgument.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("NoTextArgument.score(int, long)", "no CharSequence argument"));
	}

	@Test
	void methodReturningNoTextWithoutResponseExpressionFailsStartup() {
		this.withTemplate.withUserConfiguration(NoTextReturned.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("NoTextReturned.count(String)", "returns no CharSequence"));
	}

	@Test
	void invalidExpressionFailsStartup() {
		this.withTemplate.withUserConfiguration(InvalidExpression.class).run((context) -> {
			ModelArmorConfigurationException failure = wrappedConfigurationFailure(context);
			assertThat(failure.getMessage()).contains("InvalidExpression.ask(String)", "#request.(",
					"is not valid SpEL");
			assertThat(failure).hasCauseInstanceOf(ParseException.class);
		});
	}

	@Test
	void aPromptThatReadsAVariableTheGuardDoesNotSetFailsStartupListingTheParameters() {
		this.withTemplate.withUserConfiguration(MisspeltPrompt.class).run((context) -> {
			ModelArmorConfigurationException failure = configurationFailure(context);
			assertThat(failure.property()).isEqualTo("@ModelArmorGuarded on GuardStartupFailureTests.MisspeltPrompt.ask(String, String)");
			assertThat(failure.getMessage()).contains("prompt = \"#qestion.strip()\" reads #qestion, which the guard does not set");
			assertThat(failure.action()).isEqualTo("Name a parameter (context, question) or use #p0 to #p1");
		});
	}

	@Test
	void anIndexPastTheParametersFailsStartup() {
		this.withTemplate.withUserConfiguration(IndexPastTheEnd.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("IndexPastTheEnd.ask(String)", "reads #p1, which the guard does not set"));
		this.withTemplate.withUserConfiguration(HugeIndex.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("HugeIndex.ask(String)", "reads #a99999999999, which the guard does not set"));
		this.withTemplate.withUserConfiguration(TenDigitIndex.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("TenDigitIndex.ask(String)", "reads #p9999999999, which the guard does not set"));
	}

	@Test
	void anExpressionOnAMethodWithoutParametersSaysWhatToDoInstead() {
		this.withTemplate.withUserConfiguration(NoParameters.class).run((context) -> assertThat(
				configurationFailure(context).action())
			.isEqualTo("Set screenPrompt = false: the method has no parameters"));
		this.withTemplate.withUserConfiguration(NoParametersResponse.class).run((context) -> assertThat(
				configurationFailure(context).action())
			.isEqualTo("Read #result: the method has no parameters"));
	}

	@Test
	void aPromptReadingTheRootObjectFailsStartupEvenWithAParameterOfThatName() {
		this.withTemplate.withUserConfiguration(RootPrompt.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("RootPrompt.ask(String)", "prompt = \"#root\" reads #root, which the guard does not set"));
	}

	@Test
	void aResponseThatReadsAMisspeltResultFailsStartupButAPromptMayNotReadTheResult() {
		this.withTemplate.withUserConfiguration(MisspeltResult.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("response = \"#reslt.reply\" reads #reslt", "or #result"));
		this.withTemplate.withUserConfiguration(PromptReadsTheResult.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("prompt = \"#result\" reads #result"));
	}

	@Test
	void expressionsOverKnownVariablesStart() {
		this.withTemplate.withUserConfiguration(KnownVariables.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void noTemplateInTheAnnotationOrTheConfigurationFailsStartup() {
		this.runner.withUserConfiguration(NoTemplate.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("NoTemplate.ask(String)", "modelarmor.template-id"));
	}

	@Test
	void templateInTheAnnotationIsEnoughWithoutAConfiguredOne() {
		this.runner.withUserConfiguration(OwnTemplate.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void methodScreeningNeitherSideFailsStartup() {
		this.withTemplate.withUserConfiguration(ScreensNothing.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("ScreensNothing.ask(String)", "screens neither"));
	}

	@Test
	void privateOrFinalGuardedMethodsFailStartupBecauseNoProxyReachesThem() {
		this.withTemplate.withUserConfiguration(PrivateGuarded.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("PrivateGuarded.ask(String)", "private, static or final"));
		this.withTemplate.withUserConfiguration(FinalGuarded.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("FinalGuarded.ask(String)", "private, static or final"));
	}

	@Test
	void packagePrivateGuardedMethodIsCheckedAtStartupToo() {
		this.withTemplate.withUserConfiguration(PackagePrivateNoText.class).run((context) -> assertThat(
				configurationFailure(context).getMessage())
			.contains("PackagePrivateNoText.score(int)", "no CharSequence argument"));
	}

	/**
	 * The configuration failure that is the root cause of a failed startup.
	 */
	private static ModelArmorConfigurationException configurationFailure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ModelArmorConfigurationException.class);
		return (ModelArmorConfigurationException) NestedExceptionUtils.getRootCause(context.getStartupFailure());
	}

	/**
	 * The configuration failure somewhere in the causes of a failed startup.
	 */
	private static ModelArmorConfigurationException wrappedConfigurationFailure(
			AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (failure != null && !(failure instanceof ModelArmorConfigurationException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("a ModelArmorConfigurationException in %s", context.getStartupFailure())
			.isInstanceOf(ModelArmorConfigurationException.class);
		return (ModelArmorConfigurationException) failure;
	}

	@Configuration(proxyBeanMethods = false)
	static class NoTextArgument {

		@ModelArmorGuarded
		public String score(int points, long bonus) {
			return "";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoTextReturned {

		@ModelArmorGuarded
		public int count(String text) {
			return text.length();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidExpression {

		@ModelArmorGuarded(prompt = "#request.(")
		public String ask(String request) {
			return request;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MisspeltPrompt {

		@ModelArmorGuarded(prompt = "#qestion.strip()")
		public String ask(String context, String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class IndexPastTheEnd {

		@ModelArmorGuarded(prompt = "#p1")
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HugeIndex {

		@ModelArmorGuarded(prompt = "#a99999999999")
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TenDigitIndex {

		@ModelArmorGuarded(prompt = "#p9999999999")
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoParameters {

		@ModelArmorGuarded(prompt = "#question")
		public String ask() {
			return "";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoParametersResponse {

		@ModelArmorGuarded(screenPrompt = false, response = "#reply")
		public String ask() {
			return "";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RootPrompt {

		@ModelArmorGuarded(prompt = "#root")
		public String ask(String root) {
			return root;
		}

	}

	record Reply(String reply) {
	}

	@Configuration(proxyBeanMethods = false)
	static class MisspeltResult {

		@ModelArmorGuarded(response = "#reslt.reply")
		public Reply ask(String question) {
			return new Reply(question);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PromptReadsTheResult {

		@ModelArmorGuarded(prompt = "#result")
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class KnownVariables {

		@ModelArmorGuarded(prompt = "#p0 + ' ' + #a1 + ' ' + #question", response = "#result.reply + #context")
		public Reply ask(String context, String question) {
			return new Reply(question);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoTemplate {

		@ModelArmorGuarded
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnTemplate {

		@ModelArmorGuarded(template = "own-template")
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ScreensNothing {

		@ModelArmorGuarded(screenPrompt = false, screenResponse = false)
		public String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrivateGuarded {

		public String call(String question) {
			return ask(question);
		}

		@ModelArmorGuarded
		private String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalGuarded {

		@ModelArmorGuarded
		public final String ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PackagePrivateNoText {

		@ModelArmorGuarded
		String score(int points) {
			return "";
		}

	}

}
