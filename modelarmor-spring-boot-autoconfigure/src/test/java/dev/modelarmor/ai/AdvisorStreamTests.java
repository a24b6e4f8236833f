package dev.modelarmor.ai;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.AdvisorCallTests.assertRefusal;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.ai.SpringAiFixtures.model;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.answerResponse;
import static dev.modelarmor.guard.ModelArmorStubs.deidentified;
import static dev.modelarmor.guard.ModelArmorStubs.responsePath;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ModelArmorAdvisor} on {@code ChatClient.stream()}: buffered (the default) and per chunk.
 */
class AdvisorStreamTests {

	static final String QUESTION = "Which train goes to Lyon?";

	static final String[] CHUNKS = { "The TGV ", "from Gare de Lyon ", "goes there." };

	static final String ANSWER = String.join("", CHUNKS);

	static final String[] CARD_CHUNKS = { "your card ", "is 4111 1111 ", "1111 1111" };

	static final String MASKED_ANSWER = "your card is [CREDIT_CARD_NUMBER]";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = SpringAiFixtures.runner(modelArmor);

	private final ApplicationContextRunner perChunk = this.runner
		.withPropertyValues("modelarmor.spring-ai.advisor.stream-mode=per-chunk");

	@BeforeEach
	void answerTheRestClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void bufferedCleanStreamEmitsTheOriginalChunksAfterOneScreeningOfTheJoinedText() {
		this.runner.run((context) -> {
			model(context).streaming(CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(CHUNKS);
			assertThat(model(context).receivedUserTexts()).containsExactly(QUESTION);
		});
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(responsePath()))
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(ANSWER)))
			.withRequestBody(matchingJsonPath("$.userPrompt", equalTo(QUESTION))));
	}

	@Test
	void bufferedBlockedAnswerIsOneRefusalChunk() {
		answerResponse(modelArmor, ANSWER, ModelArmorStubs.RAI_DANGEROUS);
		this.runner.run((context) -> {
			model(context).streaming(CHUNKS);
			List<ChatClientResponse> responses = chatClient(context).prompt()
				.user(QUESTION)
				.stream()
				.chatClientResponse()
				.collectList()
				.block();
			assertThat(responses).singleElement()
				.satisfies((response) -> assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response",
						"matched", Set.of("rai")));
		});
	}

	@Test
	void bufferedBlockedAnswerErrorsWithOnBlockThrow() {
		answerResponse(modelArmor, ANSWER, ModelArmorStubs.RAI_DANGEROUS);
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			model(context).streaming(CHUNKS);
			assertThatExceptionOfType(ModelArmorViolationException.class).isThrownBy(() -> stream(context, QUESTION))
				.satisfies((ex) -> assertThat(ex.phase()).isEqualTo(Phase.RESPONSE));
		});
	}

	@Test
	void bufferedDeidentifiedAnswerIsOneRewrittenChunk() {
		answerResponse(modelArmor, String.join("", CARD_CHUNKS), deidentified(MASKED_ANSWER));
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-match=deidentify").run((context) -> {
			model(context).streaming(CARD_CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(MASKED_ANSWER);
		});
	}

	@Test
	void aBlockedPromptNeverReachesTheStreamingModel() {
		answerPrompt(modelArmor, QUESTION, ModelArmorStubs.JAILBREAK);
		this.runner.run((context) -> {
			model(context).streaming(CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedUserTexts()).isEmpty();
		});
		assertThat(responseRequests(modelArmor)).isEmpty();
	}

	@Test
	void aBlockedPromptErrorsTheStreamWithOnBlockThrow() {
		answerPrompt(modelArmor, QUESTION, ModelArmorStubs.JAILBREAK);
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			model(context).streaming(CHUNKS);
			assertThatExceptionOfType(ModelArmorViolationException.class).isThrownBy(() -> stream(context, QUESTION))
				.satisfies((ex) -> assertThat(ex.phase()).isEqualTo(Phase.PROMPT));
			assertThat(model(context).receivedUserTexts()).isEmpty();
		});
	}

	@Test
	void perChunkCleanStreamScreensEveryChunk() {
		this.perChunk.run((context) -> {
			model(context).streaming(CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(CHUNKS);
		});
		assertThat(responseRequests(modelArmor)).hasSize(CHUNKS.length);
		for (String chunk : CHUNKS) {
			modelArmor.verify(1, postRequestedFor(urlPathEqualTo(responsePath()))
				.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(chunk))));
		}
	}

	@Test
	void perChunkBlockedChunkEndsTheStreamWithTheRefusal() {
		answerResponse(modelArmor, CHUNKS[1], ModelArmorStubs.RAI_DANGEROUS);
		this.perChunk.run((context) -> {
			model(context).streaming(CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(CHUNKS[0], ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		});
		assertThat(responseRequests(modelArmor)).hasSize(2);
	}

	@Test
	void perChunkBlockedChunkErrorsWithOnBlockThrow() {
		answerResponse(modelArmor, CHUNKS[1], ModelArmorStubs.RAI_DANGEROUS);
		this.perChunk.withPropertyValues("modelarmor.spring-ai.advisor.on-block=throw").run((context) -> {
			model(context).streaming(CHUNKS);
			assertThatExceptionOfType(ModelArmorViolationException.class).isThrownBy(() -> stream(context, QUESTION));
		});
	}

	@Test
	void perChunkDeidentifiesAChunk() {
		answerResponse(modelArmor, CARD_CHUNKS[1], deidentified("is [CREDIT_CARD_NUMBER] "));
		this.perChunk.withPropertyValues("modelarmor.spring-ai.advisor.on-match=deidentify").run((context) -> {
			model(context).streaming(CARD_CHUNKS);
			assertThat(stream(context, QUESTION)).containsExactly(CARD_CHUNKS[0], "is [CREDIT_CARD_NUMBER] ",
					CARD_CHUNKS[2]);
		});
	}

	private static List<String> stream(ApplicationContext context, String prompt) {
		List<String> texts = chatClient(context).prompt().user(prompt).stream().content().collectList().block();
		return Objects.requireNonNull(texts);
	}

}
