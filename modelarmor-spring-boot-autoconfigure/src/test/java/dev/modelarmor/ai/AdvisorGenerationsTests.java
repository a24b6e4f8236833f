package dev.modelarmor.ai;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
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
import static dev.modelarmor.guard.ModelArmorStubs.answerResponse;
import static dev.modelarmor.guard.ModelArmorStubs.deidentified;
import static dev.modelarmor.guard.ModelArmorStubs.deidentifiedAndDangerous;
import static dev.modelarmor.guard.ModelArmorStubs.incomplete;
import static dev.modelarmor.guard.ModelArmorStubs.responsePath;
import static dev.modelarmor.guard.ModelArmorStubs.responseRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An answer of several generations (a model asked for several candidates): each generation is screened on
 * its own and, with de-identification, rewritten with its own text; one that is refused refuses the whole
 * answer. No generation ever reaches the caller unscreened, called or streamed.
 */
class AdvisorGenerationsTests {

	static final String QUESTION = "Which train goes to Lyon?";

	static final String CLEAN = "The TGV from Gare de Lyon goes there.";

	static final String CARD = "your card is 4111 1111 1111 1111";

	static final String MASKED_CARD = "your card is [CREDIT_CARD_NUMBER]";

	static final String EMAIL = "write to jane@example.com";

	static final String MASKED_EMAIL = "write to [EMAIL_ADDRESS]";

	static final String HARMFUL = "Here is how to build a weapon at home";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = SpringAiFixtures.runner(modelArmor);

	private final ApplicationContextRunner deidentifying = this.runner
		.withPropertyValues("modelarmor.spring-ai.advisor.on-match=deidentify");

	@BeforeEach
	void answerTheRestClean() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void eachGenerationIsScreenedOnItsOwnAgainstThePrompt() {
		this.runner.run((context) -> {
			model(context).answering(CLEAN, "", "Take the 10:04.");
			assertThat(texts(call(context))).containsExactly(CLEAN, "", "Take the 10:04.");
			assertThat(count(context, "response", "allowed")).isEqualTo(2);
		});
		assertThat(responseRequests(modelArmor)).hasSize(2);
		for (String generation : List.of(CLEAN, "Take the 10:04.")) {
			modelArmor.verify(1, postRequestedFor(urlPathEqualTo(responsePath()))
				.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(generation)))
				.withRequestBody(matchingJsonPath("$.userPrompt", equalTo(QUESTION))));
		}
	}

	@Test
	void deidentifyRewritesEachGenerationWithItsOwnText() {
		answerResponse(modelArmor, CARD, deidentified(MASKED_CARD));
		answerResponse(modelArmor, EMAIL, deidentified(MASKED_EMAIL));
		this.deidentifying.run((context) -> {
			model(context).answering(CARD, CLEAN, EMAIL);
			ChatClientResponse response = call(context);
			assertThat(texts(response)).containsExactly(MASKED_CARD, CLEAN, MASKED_EMAIL);
			ChatResponse chatResponse = Objects.requireNonNull(response.chatResponse());
			assertThat(chatResponse.getMetadata().containsKey(ModelArmorAdvisor.BLOCKED)).isFalse();
			assertThat(chatResponse.getMetadata().getModel()).as("the response's metadata").isEqualTo(FakeChatModel.MODEL);
			for (int i = 0; i < 3; i++) {
				Generation generation = chatResponse.getResults().get(i);
				assertThat(generation.getOutput().getMetadata()).as("generation %d's message", i)
					.containsEntry(FakeChatModel.POSITION, i);
				assertThat(generation.getMetadata().getFinishReason()).isEqualTo(FakeChatModel.FINISH_REASON);
			}
			assertThat(count(context, "response", "deidentified")).isEqualTo(2);
			assertThat(count(context, "response", "allowed")).isEqualTo(1);
		});
	}

	@Test
	void oneBlockedGenerationRefusesTheWholeAnswerAndTheRestIsNotScreened() {
		answerResponse(modelArmor, HARMFUL, ModelArmorStubs.RAI_DANGEROUS);
		this.runner.run((context) -> {
			model(context).answering(CLEAN, HARMFUL, "Take the 10:04.");
			assertRefusal(call(context), ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "matched", Set.of("rai"));
		});
		assertThat(responseRequests(modelArmor)).hasSize(2);
	}

	@Test
	void aGenerationThatCannotBeDeidentifiedRefusesTheAnswerEvenAfterOthersWere() {
		answerResponse(modelArmor, CARD, deidentified(MASKED_CARD));
		answerResponse(modelArmor, EMAIL, deidentifiedAndDangerous(MASKED_EMAIL));
		this.deidentifying.run((context) -> {
			model(context).answering(CARD, EMAIL);
			ChatClientResponse response = call(context);
			assertRefusal(response, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "matched", Set.of("sdp", "rai"));
			assertThat(texts(response)).containsExactly(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
		});
	}

	@Test
	void aGenerationThatCannotBeScreenedRefusesTheAnswerUnlessFailOpen() {
		answerResponse(modelArmor, CARD, incomplete("PARTIAL", false));
		this.runner.run((context) -> {
			model(context).answering(CLEAN, CARD);
			assertRefusal(call(context), ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "not_screened", Set.of());
		});
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
			model(context).answering(CLEAN, CARD);
			assertThat(texts(call(context))).containsExactly(CLEAN, CARD);
		});
	}

	@Test
	void aBufferedStreamScreensEachGenerationAcrossItsChunksAndRewritesEachOnItsOwn() {
		answerResponse(modelArmor, CARD, deidentified(MASKED_CARD));
		this.deidentifying.withPropertyValues("modelarmor.spring-ai.advisor.stream-mode=buffered").run((context) -> {
			model(context).streamingGenerations(
					List.of(List.of("your card ", "The TGV "), List.of("is 4111 1111 ", "from Gare de Lyon "),
							List.of("1111 1111", "goes there.")));
			List<ChatClientResponse> chunks = stream(context);
			assertThat(chunks).singleElement().satisfies((chunk) -> assertThat(texts(chunk))
				.containsExactly(MASKED_CARD, CLEAN));
		});
		assertThat(responseRequests(modelArmor)).hasSize(2);
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(responsePath()))
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(CLEAN))));
	}

	@Test
	void aCleanBufferedStreamOfSeveralGenerationsEmitsTheOriginalChunks() {
		this.runner.run((context) -> {
			model(context).streamingGenerations(List.of(List.of("The TGV ", "Take "), List.of("goes there.", "the 10:04.")));
			assertThat(stream(context)).extracting(AdvisorGenerationsTests::texts)
				.containsExactly(List.of("The TGV ", "Take "), List.of("goes there.", "the 10:04."));
		});
		assertThat(responseRequests(modelArmor)).hasSize(2);
	}

	@Test
	void aBufferedStreamWithOneBlockedGenerationIsOneRefusal() {
		answerResponse(modelArmor, HARMFUL, ModelArmorStubs.RAI_DANGEROUS);
		this.runner.run((context) -> {
			model(context).streamingGenerations(List.of(List.of("The TGV ", "Here is how to "),
					List.of("goes there.", "build a weapon at home")));
			assertThat(stream(context)).singleElement()
				.satisfies((chunk) -> assertRefusal(chunk, ModelArmorAdvisorOptions.DEFAULT_REFUSAL, "response", "matched",
						Set.of("rai")));
		});
	}

	@Test
	void perChunkScreensEachGenerationOfEachChunk() {
		answerResponse(modelArmor, "is 4111 1111 1111 1111", deidentified("is [CREDIT_CARD_NUMBER]"));
		this.deidentifying.withPropertyValues("modelarmor.spring-ai.advisor.stream-mode=per-chunk").run((context) -> {
			model(context).streamingGenerations(List.of(List.of("your card ", "The TGV "),
					List.of("is 4111 1111 1111 1111", "goes there.")));
			assertThat(stream(context)).extracting(AdvisorGenerationsTests::texts)
				.containsExactly(List.of("your card ", "The TGV "), List.of("is [CREDIT_CARD_NUMBER]", "goes there."));
		});
		assertThat(responseRequests(modelArmor)).hasSize(4);
	}

	private static ChatClientResponse call(ApplicationContext context) {
		return chatClient(context).prompt().user(QUESTION).call().chatClientResponse();
	}

	private static List<ChatClientResponse> stream(ApplicationContext context) {
		return Objects.requireNonNull(
				chatClient(context).prompt().user(QUESTION).stream().chatClientResponse().collectList().block());
	}

	private static List<String> texts(ChatClientResponse response) {
		ChatResponse chatResponse = Objects.requireNonNull(response.chatResponse());
		return chatResponse.getResults().stream().map(Generation::getOutput).map((output) -> output.getText()).toList();
	}

	private static double count(ApplicationContext context, String phase, String result) {
		return context.getBean(MeterRegistry.class)
			.get(MicrometerScreeningObserver.SCREENINGS)
			.tags("phase", phase, "result", result)
			.counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

}
