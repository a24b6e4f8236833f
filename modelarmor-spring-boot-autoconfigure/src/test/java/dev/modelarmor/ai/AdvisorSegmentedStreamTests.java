package dev.modelarmor.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorSpringAiAutoConfiguration;
import dev.modelarmor.client.HeadReadingFilters;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.AdvisorCallTests.assertRefusal;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.client.HeadReadingFilters.CARD_REPLACEMENT;
import static dev.modelarmor.client.HeadReadingFilters.INJECTION;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ModelArmorAdvisor} streaming in windows (the default), through Spring AI's auto-configured
 * {@code ChatClient}, a scripted streaming model and WireMock playing Model Armor's filters
 * ({@link HeadReadingFilters}: {@link HeadReadingFilters#INJECTION} is a prompt injection, card numbers
 * are de-identified). Windows of 1 KB, a quarter of them held back.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdvisorSegmentedStreamTests {

	private static final String QUESTION = "Which train goes to Lyon?";

	private static final String CARD = "4111 1111 1111 1234";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().extensions(new HeadReadingFilters()))
		.build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
				ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
				ModelArmorSpringAiAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withPropertyValues("modelarmor.spring-ai.advisor.enabled=true", "modelarmor.spring-ai.advisor.stream-segment=1KB")
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Model.class);

	@BeforeEach
	void filters() {
		modelArmor.resetAll();
		modelArmor.stubFor(post(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)")).atPriority(10)
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));
	}

	@Test
	void aCleanAnswerIsTheModelsChunksAfterOneScreeningPerWindowEachCounted() {
		List<String> chunks = chunks(sentences(6_000), 30);
		this.runner.run((context) -> {
			model(context).streaming(chunks);
			assertThat(content(context)).containsExactlyElementsOf(chunks);
			int windows = responseRequests(modelArmor).size();
			assertThat(windows).isBetween(6, 10);
			assertThat(context.getBean(SimpleMeterRegistry.class)
				.get("modelarmor.guard.screenings")
				.tags("phase", "response", "result", "allowed")
				.counter()
				.count()).isEqualTo(windows);
		});
	}

	@Test
	void aMatchAcrossAChunkBoundaryIsFoundAndNothingAfterThePreviousWindowIsEmitted() {
		// 150 bytes pass in the first window (of 300), the next is due at 1,174 bytes: in the injection
		String head = "a".repeat(1169) + " ";
		int split = INJECTION.indexOf("previous");
		List<String> chunks = new ArrayList<>(chunks(head, 50));
		chunks.add(INJECTION.substring(0, split));
		chunks.add(INJECTION.substring(split));
		chunks.addAll(chunks(sentences(2_000), 50));
		this.runner.run((context) -> {
			model(context).streaming(chunks);
			List<ChatClientResponse> responses = responses(context);
			ChatClientResponse last = responses.get(responses.size() - 1);
			assertRefusal(last, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "matched",
					Set.of("pi_and_jailbreak"));
			String emitted = text(responses.subList(0, responses.size() - 1));
			assertThat(emitted).isNotEmpty().doesNotContain("Ignore");
			assertThat(head).startsWith(emitted);
			// Model Armor saw half of the injection in one window, which passed, and all of it in the next.
			assertThat(windowTexts())
				.anySatisfy((text) -> assertThat(text).contains(INJECTION.substring(0, split)).doesNotContain(INJECTION))
				.anySatisfy((text) -> assertThat(text).contains(INJECTION));
		});
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.stream-mode=per-chunk").run((context) -> {
			model(context).streaming(chunks);
			assertThat(content(context)).as("per chunk, the split injection goes unseen").containsExactlyElementsOf(chunks);
		});
	}

	@Test
	void theFirstSentencesReachTheCallerOnceTheFirstWindowPassedWhileTheModelStillStreams() {
		String opening = sentences(300);
		this.runner.run((context) -> {
			model(context).streamingResponses(Flux.concat(Flux.fromIterable(chunks(opening, 6))
				.map(AdvisorSegmentedStreamTests::textChunk), Flux.never()));
			String first = chatClient(context).prompt().user(QUESTION).stream().content().next()
				.block(Duration.ofSeconds(30));
			assertThat(first).isNotEmpty();
			assertThat(opening).startsWith(first);
			assertThat(responseRequests(modelArmor)).hasSize(1);
		});
	}

	@Test
	void anInjectionSplitOverTwoChunksAcrossTheFirstWindowsEdgeIsNeverEmitted() {
		int split = INJECTION.indexOf("previous");
		// 250 bytes, then the injection's first 11 bytes end the first window (of 261 bytes), which passes
		String head = sentences(250).substring(0, 250);
		List<String> chunks = new ArrayList<>(chunks(head, 10));
		chunks.add(INJECTION.substring(0, split));
		chunks.add(INJECTION.substring(split));
		chunks.addAll(chunks(sentences(2_000), 10));
		this.runner.run((context) -> {
			model(context).streaming(chunks);
			List<ChatClientResponse> responses = responses(context);
			assertRefusal(responses.get(responses.size() - 1), ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response",
					"matched", Set.of("pi_and_jailbreak"));
			String emitted = text(responses.subList(0, responses.size() - 1));
			assertThat(emitted).isNotEmpty().doesNotContain("Ignore");
			assertThat(head).startsWith(emitted);
			assertThat(windowTexts()).first().asString().endsWith(INJECTION.substring(0, split));
			assertThat(windowTexts()).anySatisfy((text) -> assertThat(text).contains(INJECTION));
		});
	}

	@Test
	void anInjectionInTheFinalTailIsCaught() {
		List<String> chunks = new ArrayList<>(chunks(sentences(1_500), 40));
		chunks.add(INJECTION);
		this.runner.run((context) -> {
			model(context).streaming(chunks);
			List<String> content = content(context);
			assertThat(content).last().isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(String.join("", content)).doesNotContain("Ignore");
		});
	}

	@Test
	void modelArmorDownMidStreamEndsTheStreamFailClosed() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeModelResponse")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", containing("OUTAGE-MARKER")))
			.willReturn(aResponse().withStatus(503)));
		List<String> chunks = new ArrayList<>(chunks(sentences(1_500), 40));
		chunks.add("OUTAGE-MARKER ");
		chunks.addAll(chunks(sentences(1_500), 40));
		this.runner.run((context) -> {
			model(context).streaming(chunks);
			List<ChatClientResponse> responses = responses(context);
			assertRefusal(responses.get(responses.size() - 1), ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response",
					"not_screened", Set.of());
			assertThat(text(responses.subList(0, responses.size() - 1))).isNotEmpty().doesNotContain("OUTAGE-MARKER");
		});
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			model(context).streaming(chunks);
			List<String> received = new CopyOnWriteArrayList<>();
			assertThatExceptionOfType(ModelArmorNotScreenedException.class).isThrownBy(() -> chatClient(context)
				.prompt()
				.user(QUESTION)
				.stream()
				.content()
				.doOnNext(received::add)
				.blockLast());
			assertThat(String.join("", received)).isNotEmpty().doesNotContain("OUTAGE-MARKER");
		});
	}

	@Test
	void failOpenLetsTheStreamThroughWithAWarning(CapturedOutput output) {
		ModelArmorStubs.failEverything(modelArmor);
		List<String> chunks = chunks(sentences(3_000), 40);
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			model(context).streaming(chunks);
			assertThat(content(context)).containsExactlyElementsOf(chunks);
		});
		assertThat(output).contains("letting it through (fail-open): method=\"ModelArmorAdvisor.adviseStream\"");
	}

	@Test
	void aCardAcrossChunksIsEmittedDeidentifiedAndNeverInClear() {
		String text = sentences(1_000) + "Your card " + CARD + " is charged. " + sentences(1_500);
		List<String> chunks = chunks(text, 7);
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-match=deidentify").run((context) -> {
			model(context).streaming(chunks);
			List<String> content = content(context);
			assertThat(content).noneSatisfy((chunk) -> assertThat(chunk).contains("1234"));
			assertThat(String.join("", content)).isEqualTo(text.replace(CARD, CARD_REPLACEMENT));
		});
	}

	@Test
	void toolCallsAreScreenedBeforeTheyAreEmitted() {
		this.runner.run((context) -> {
			model(context).streamingResponses(List.of(textChunk("Let me look that up."),
					toolCallChunk("timetable", "{\"city\": \"Lyon\"}")));
			List<ChatClientResponse> responses = responses(context);
			assertThat(responses).hasSize(2);
			assertThat(responses.get(1).chatResponse().getResult().getOutput().getToolCalls()).singleElement()
				.satisfies((call) -> assertThat(call.name()).isEqualTo("timetable"));
			assertThat(windowTexts()).contains("timetable\n{\"city\": \"Lyon\"}\n");
		});
		this.runner.run((context) -> {
			model(context).streamingResponses(List.of(textChunk("Running it."),
					toolCallChunk("send_mail", "{\"body\": \"" + INJECTION + "\"}"), textChunk("Sent.")));
			List<ChatClientResponse> responses = responses(context);
			assertThat(responses).hasSize(2);
			assertThat(responses.get(0).chatResponse().getResult().getOutput().getText()).isEqualTo("Running it.");
			assertRefusal(responses.get(1), ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "matched",
					Set.of("pi_and_jailbreak"));
		});
	}

	@Test
	void aCancelledStreamStopsTheModelAndStartsNoFurtherScreening() throws InterruptedException {
		AtomicBoolean cancelled = new AtomicBoolean();
		this.runner.run((context) -> {
			model(context).streamingResponses(Flux.interval(Duration.ofMillis(5))
				.take(2_000)
				.map((i) -> textChunk("streamed-word " + i + " "))
				.doOnCancel(() -> cancelled.set(true)));
			List<String> first = chatClient(context).prompt().user(QUESTION).stream().content().take(2).collectList()
				.block();
			assertThat(first).hasSize(2);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			while (!cancelled.get() && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			assertThat(cancelled).isTrue();
			int calls = responseRequests(modelArmor).size();
			Thread.sleep(500);
			assertThat(responseRequests(modelArmor)).hasSize(calls);
			assertThat(calls).isLessThanOrEqualTo(2);
		});
	}

	@Test
	void aCallerThatReadsSlowlyHoldsTheModelBack() throws InterruptedException {
		AtomicInteger produced = new AtomicInteger();
		this.runner.run((context) -> {
			model(context).streamingResponses(Flux.range(0, 5_000)
				.map((i) -> textChunk("streamed-word " + i + " "))
				.doOnNext((chunk) -> produced.incrementAndGet()));
			AtomicInteger received = new AtomicInteger();
			BaseSubscriber<String> oneAtATime = new BaseSubscriber<>() {

				@Override
				protected void hookOnSubscribe(Subscription subscription) {
					request(1);
				}

				@Override
				protected void hookOnNext(String value) {
					received.incrementAndGet();
				}

			};
			chatClient(context).prompt().user(QUESTION).stream().content().subscribe(oneAtATime);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (received.get() == 0 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			Thread.sleep(300);
			assertThat(received).hasValue(1);
			// One window's worth of chunks and what the operators prefetch, not the whole answer.
			assertThat(produced.get()).isLessThan(1_000);
			oneAtATime.dispose();
		});
	}

	@Test
	void aStreamWindowBelow1KbFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.stream-segment=512B")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("modelarmor.spring-ai.advisor.stream-segment"));
	}

	private static List<String> windowTexts() {
		return responseRequests(modelArmor).stream()
			.map((request) -> tools.jackson.databind.json.JsonMapper.shared()
				.readTree(request.getBodyAsString())
				.path("modelResponseData")
				.path("text")
				.asString())
			.toList();
	}

	private static List<String> content(ApplicationContext context) {
		return Objects.requireNonNull(
				chatClient(context).prompt().user(QUESTION).stream().content().collectList().block());
	}

	private static List<ChatClientResponse> responses(ApplicationContext context) {
		return Objects.requireNonNull(
				chatClient(context).prompt().user(QUESTION).stream().chatClientResponse().collectList().block());
	}

	private static String text(List<ChatClientResponse> responses) {
		StringBuilder text = new StringBuilder();
		for (ChatClientResponse response : responses) {
			String part = response.chatResponse().getResult().getOutput().getText();
			text.append((part != null) ? part : "");
		}
		return text.toString();
	}

	static String sentences(int length) {
		String[] sentences = { "The TGV leaves Gare de Lyon every hour. ", "It takes two hours to Lyon. ",
				"Seats can be booked online. ", "Bicycles travel in a separate coach. " };
		StringBuilder text = new StringBuilder();
		for (int i = 0; text.length() < length; i++) {
			text.append(sentences[i % sentences.length]);
		}
		return text.toString();
	}

	static List<String> chunks(String text, int size) {
		List<String> chunks = new ArrayList<>();
		for (int i = 0; i < text.length(); i += size) {
			chunks.add(text.substring(i, Math.min(text.length(), i + size)));
		}
		return chunks;
	}

	static ChatResponse textChunk(String text) {
		return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
	}

	static ChatResponse toolCallChunk(String name, String arguments) {
		AssistantMessage message = AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new ToolCall("call-1", "function", name, arguments)))
			.build();
		return new ChatResponse(List.of(new Generation(message)));
	}

	private static ScriptedModel model(ApplicationContext context) {
		return context.getBean(ScriptedModel.class);
	}

	/**
	 * A streaming model that sends what the test scripts.
	 */
	static final class ScriptedModel implements ChatModel {

		private volatile Flux<ChatResponse> stream = Flux.empty();

		void streaming(List<String> chunks) {
			this.stream = Flux.fromIterable(chunks).map(AdvisorSegmentedStreamTests::textChunk);
		}

		void streamingResponses(List<ChatResponse> chunks) {
			this.stream = Flux.fromIterable(chunks);
		}

		void streamingResponses(Flux<ChatResponse> chunks) {
			this.stream = chunks;
		}

		@Override
		public ChatResponse call(Prompt prompt) {
			throw new UnsupportedOperationException("these tests stream");
		}

		@Override
		public Flux<ChatResponse> stream(Prompt prompt) {
			return this.stream;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Model {

		@Bean
		ScriptedModel chatModel() {
			return new ScriptedModel();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
