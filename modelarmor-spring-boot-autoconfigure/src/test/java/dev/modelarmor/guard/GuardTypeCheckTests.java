package dev.modelarmor.guard;

import java.util.Map;
import java.util.function.Supplier;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up report reads the guarded method's declared types: its hints name a property the type has
 * (or say there is none), and a {@code prompt} or {@code response} that reads a property the type lacks
 * fails the start, instead of every call failing with a {@code SpelEvaluationException}.
 */
class GuardTypeCheckTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.credentials.enabled=false",
				"modelarmor.template-id=default-template");

	// the hints

	@Test
	void aRecordArgumentWithoutTextHintsAtItsTextComponent() {
		assertThat(failure(RecordArgument.class).action())
			.isEqualTo("Set prompt = \"#request.message\" (SpEL over the arguments) or screenPrompt = false");
	}

	@Test
	void everyTextPropertyIsOfferedWhenThereAreSeveral() {
		assertThat(failure(SeveralTextProperties.class).action()).isEqualTo("Set prompt to the one that holds the "
				+ "prompt, \"#request.conversationId\" or \"#request.message\" or \"#note.body\" (SpEL over the "
				+ "arguments), or screenPrompt = false");
		assertThat(failure(SeveralAnswerProperties.class).action()).isEqualTo("Set response to the one that holds "
				+ "the answer, \"#result.conversationId\" or \"#result.message\" (SpEL over #result), or "
				+ "screenResponse = false");
	}

	@Test
	void theHintPastedStartsAndScreensThatProperty() {
		answerEverythingClean(modelArmor);
		ModelArmorStubs.runner(modelArmor).withUserConfiguration(RecordArgumentFixed.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(RecordArgumentFixed.class).chat(new ChatRequest(7, "Which train goes to Lyon?"));
			assertThat(promptRequests(modelArmor)).singleElement()
				.satisfies((request) -> assertThat(request.getBodyAsString()).contains("Which train goes to Lyon?"));
		});
	}

	@Test
	void aBeanOrAPublicFieldArgumentHintsAtItsTextProperty() {
		assertThat(failure(BeanArgument.class).action()).startsWith("Set prompt = \"#question.body\"");
		assertThat(failure(FieldArgument.class).action()).startsWith("Set prompt = \"#form.comment\"");
	}

	@Test
	void argumentsWithoutTextPropertiesAreSaidToHaveNone() {
		assertThat(failure(NoTextAnywhere.class).action()).isEqualTo("Set prompt to SpEL over the arguments that gives "
				+ "the prompt's text (no parameter's type, int, GuardTypeCheckTests.Scores, has a CharSequence property "
				+ "to read) or screenPrompt = false");
	}

	@Test
	void aMethodReturningIntIsNotToldToReadResultText() {
		ModelArmorConfigurationException failure = failure(ReturnsInt.class);
		assertThat(failure.action()).isEqualTo("Set screenResponse = false: int has no CharSequence property to screen")
			.doesNotContain("#result");
	}

	@Test
	void theResponseHintReadsTheElementOfAMonoOrAFluxAndAVoidMethodHasNoAnswer() {
		assertThat(failure(ReturnsMonoOfRecord.class).action())
			.isEqualTo("Set response = \"#result.reply\" (SpEL over #result, the Mono's value) or screenResponse = false");
		assertThat(failure(ReturnsFluxOfRecord.class).action())
			.isEqualTo("Set response = \"#result.reply\" (SpEL over #result, each element of the Flux) or screenResponse = false");
		assertThat(failure(ReturnsVoid.class).action()).isEqualTo("Set screenResponse = false: the method gives no answer");
	}

	@Test
	void anUnknowableAnswerTypeGetsAGeneralHint() {
		assertThat(failure(ReturnsObject.class).action()).isEqualTo("Set response to SpEL over #result that gives the "
				+ "answer's text (each element for a Mono, Flux or CompletableFuture) or screenResponse = false");
	}

	// the checks of the expressions' properties

	@Test
	void aPromptReadingAPropertyTheRecordLacksFailsTheStartNamingMethodAndProperty() {
		ModelArmorConfigurationException failure = failure(MissingRecordProperty.class);
		assertThat(failure.property())
			.isEqualTo("@ModelArmorGuarded on GuardTypeCheckTests.MissingRecordProperty.chat(ChatRequest)");
		assertThat(failure.getMessage()).contains("prompt = \"#request.text\" reads #request.text, but "
				+ "GuardTypeCheckTests.ChatRequest has no property 'text', so every call would fail");
		assertThat(failure.action()).isEqualTo("Set prompt = \"#request.message\"");
	}

	@Test
	void aResponseReadingAPropertyTheElementLacksFailsTheStart() {
		ModelArmorConfigurationException failure = failure(MissingResultProperty.class);
		assertThat(failure.getMessage()).contains("response = \"#result.text\" reads #result.text, but "
				+ "GuardTypeCheckTests.Reply has no property 'text'");
		assertThat(failure.action()).isEqualTo("Set response = \"#result.reply\"");
		assertThat(failure(ResultTextOnInt.class).getMessage()).contains("Integer has no property 'text'");
	}

	@Test
	void aMissingPropertyDeeperInTheChainOrInALargerExpressionListsTheProperties() {
		ModelArmorConfigurationException deeper = failure(MissingNestedProperty.class);
		assertThat(deeper.getMessage()).contains("reads #request.inner.txt, but GuardTypeCheckTests.Inner has no property 'txt'");
		assertThat(deeper.action()).isEqualTo("Set prompt = \"#request.inner.text\"");
		ModelArmorConfigurationException concatenated = failure(MissingInConcatenation.class);
		assertThat(concatenated.action())
			.isEqualTo("Read one of the properties that GuardTypeCheckTests.ChatRequest has: id, message");
	}

	@Test
	void aMissingPropertyOnATypeWithSeveralTextPropertiesOffersEach() {
		assertThat(failure(MissingOnConversation.class).action()).isEqualTo("Set prompt to the one that holds the text, "
				+ "\"#request.conversationId\" or \"#request.message\"");
	}

	@Test
	void theListedPropertiesAreTheOnesSpelReads() {
		assertThat(failure(MissingOnOddBean.class).action())
			.isEqualTo("Read one of the properties that GuardTypeCheckTests.OddBean has: ready, title");
	}

	@Test
	void anArgumentReadByIndexIsCheckedToo() {
		assertThat(failure(MissingByIndex.class).getMessage())
			.contains("prompt = \"#p0.text\" reads #p0.text, but GuardTypeCheckTests.ChatRequest has no property 'text'");
	}

	@Test
	void everyWaySpelReadsAPropertyIsAccepted() {
		this.runner.withUserConfiguration(PropertiesThatExist.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void typesThatMayHoldMoreThanTheyDeclareAreNotChecked() {
		this.runner.withUserConfiguration(UnknowableTypes.class).run((context) -> assertThat(context).hasNotFailed());
	}

	private ModelArmorConfigurationException failure(Class<?> configuration) {
		ModelArmorConfigurationException[] failure = new ModelArmorConfigurationException[1];
		this.runner.withUserConfiguration(configuration).run((context) -> failure[0] = configurationFailure(context));
		return failure[0];
	}

	private static ModelArmorConfigurationException configurationFailure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ModelArmorConfigurationException.class);
		return (ModelArmorConfigurationException) NestedExceptionUtils.getRootCause(context.getStartupFailure());
	}

	record ChatRequest(int id, String message) {
	}

	record Reply(String reply, int tokens) {
	}

	record Inner(String text) {
	}

	record Outer(Inner inner) {
	}

	record Scores(int points, long bonus) {
	}

	/** A bean: text through a getter, a flag through {@code isX}. */
	public static class Question {

		public String getBody() {
			return "body";
		}

		public boolean isUrgent() {
			return false;
		}

	}

	/** Text in a public field. */
	public static class Form {

		public String comment = "comment";

		public int rating;

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordArgument {

		@ModelArmorGuarded(screenResponse = false)
		public void chat(ChatRequest request) {
		}

	}

	record Conversation(String conversationId, String message) {
	}

	@Configuration(proxyBeanMethods = false)
	static class SeveralTextProperties {

		@ModelArmorGuarded(screenResponse = false)
		public void chat(Conversation request, int user, Question note) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SeveralAnswerProperties {

		@ModelArmorGuarded(screenPrompt = false)
		public Conversation chat() {
			return new Conversation("", "");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordArgumentFixed {

		@ModelArmorGuarded(prompt = "#request.message", screenResponse = false)
		public void chat(ChatRequest request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BeanArgument {

		@ModelArmorGuarded(screenResponse = false)
		public void ask(int user, Question question) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FieldArgument {

		@ModelArmorGuarded(screenResponse = false)
		public void review(Form form) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoTextAnywhere {

		@ModelArmorGuarded(screenResponse = false)
		public void score(int points, Scores scores) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReturnsInt {

		@ModelArmorGuarded
		public int count(String text) {
			return text.length();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReturnsMonoOfRecord {

		@ModelArmorGuarded
		public Mono<Reply> ask(String question) {
			return Mono.empty();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReturnsFluxOfRecord {

		@ModelArmorGuarded
		public Flux<Reply> ask(String question) {
			return Flux.empty();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReturnsVoid {

		@ModelArmorGuarded
		public void ask(String question) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReturnsObject {

		@ModelArmorGuarded
		public Object ask(String question) {
			return question;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingRecordProperty {

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false)
		public void chat(ChatRequest request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingOnConversation {

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false)
		public void chat(Conversation request) {
		}

	}

	/** Methods that look like getters but are not properties, beside two that are. */
	public static class OddBean {

		public String get() {
			return "";
		}

		public boolean is() {
			return true;
		}

		public String isNamed() {
			return "";
		}

		public boolean isReady() {
			return true;
		}

		public String getTitle() {
			return "";
		}

		public String getWith(int index) {
			return "";
		}

		public static String getShared() {
			return "";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingOnOddBean {

		@ModelArmorGuarded(prompt = "#request.text + ''", screenResponse = false)
		public void chat(OddBean request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingByIndex {

		@ModelArmorGuarded(prompt = "#p0.text", screenResponse = false)
		public void chat(ChatRequest request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingResultProperty {

		@ModelArmorGuarded(response = "#result.text")
		public Mono<Reply> ask(String question) {
			return Mono.empty();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ResultTextOnInt {

		@ModelArmorGuarded(response = "#result.text")
		public int count(String text) {
			return text.length();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingNestedProperty {

		@ModelArmorGuarded(prompt = "#request.inner.txt", screenResponse = false)
		public void chat(Outer request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingInConcatenation {

		@ModelArmorGuarded(prompt = "#request.text + '!'", screenResponse = false)
		public void chat(ChatRequest request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PropertiesThatExist {

		@ModelArmorGuarded(prompt = "#request?.message", response = "#result.reply")
		public Reply record(ChatRequest request) {
			return new Reply("", 0);
		}

		@ModelArmorGuarded(prompt = "#p1.body + #question.urgent", screenResponse = false)
		public void bean(int user, Question question) {
		}

		@ModelArmorGuarded(prompt = "#form.comment + #form.rating", screenResponse = false)
		public void field(Form form) {
		}

		@ModelArmorGuarded(prompt = "#request.inner.text.strip()", screenResponse = false)
		public void nested(Outer request) {
		}

		@ModelArmorGuarded(prompt = "#request.message.bytes.length > 0 ? #request.message : ''", screenResponse = false)
		public void throughJdkTypes(ChatRequest request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnknowableTypes {

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false)
		public void object(Object request) {
		}

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false)
		public void anInterface(Supplier<String> request) {
		}

		@ModelArmorGuarded(prompt = "#request.text", screenResponse = false)
		public void map(Map<String, String> request) {
		}

		@ModelArmorGuarded(prompt = "#request.get().text", screenResponse = false)
		public void afterAMethodCall(Supplier<ChatRequest> request) {
		}

		@ModelArmorGuarded(prompt = "#request.messages[0].text", screenResponse = false)
		public void afterAnIndex(Messages request) {
		}

		@ModelArmorGuarded(screenPrompt = false, response = "#result.text")
		public <T> T generic(String question) {
			return null;
		}

	}

	record Messages(java.util.List<ChatRequest> messages) {
	}

}
