package dev.modelarmor.ai;

import java.net.URI;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.client.TestImages;
import dev.modelarmor.guard.ModelArmorStubs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.SpringAiFixtures.chatClient;
import static dev.modelarmor.ai.SpringAiFixtures.model;
import static dev.modelarmor.ai.SpringAiFixtures.screenings;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Media in prompts, through Spring AI's auto-configured {@code ChatClient} with WireMock playing Model Armor:
 * every image of the user messages is screened as an {@code IMAGE}, each its own call, at the same time as
 * the text; documents as their type; a prompt of only media is screened; media Model Armor cannot screen and
 * media given by URL are blocked unless allowed (and a URL is never fetched); an image over the limit is
 * blocked in every mode; a redacted image replaces the image the model reads.
 */
@ExtendWith(OutputCaptureExtension.class)
class PromptMediaTests {

	static final String QUESTION = "What is in these pictures?";

	static final String ANSWER = "Two cats.";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@RegisterExtension
	static WireMockExtension imageHost = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = SpringAiFixtures.runner(modelArmor);

	@BeforeEach
	void answerEverythingCleanUnlessTold() {
		answerEverythingClean(modelArmor);
		imageHost.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(anyUrl())
			.willReturn(aResponse().withStatus(200).withBody(TestImages.png())));
	}

	@Test
	void textAndTwoImagesAreThreeCallsAtTheSameTimeAndTheModelGetsThemUnchanged() {
		byte[] first = TestImages.png();
		byte[] second = TestImages.jpeg();
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(5)
			.willReturn(okJson(ModelArmorStubs.NO_MATCH).withFixedDelay(600)));
		this.runner.run((context) -> {
			model(context).answering(ANSWER);

			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(first))
					.media(MimeTypeUtils.IMAGE_JPEG, new ByteArrayResource(second)))
				.call()
				.content();

			assertThat(answer).isEqualTo(ANSWER);
			List<Media> received = model(context).receivedPrompts().get(0).getUserMessage().getMedia();
			assertThat(received).extracting(Media::getDataAsByteArray).containsExactly(first, second);
		});
		List<LoggedRequest> prompts = promptRequests(modelArmor);
		assertThat(prompts).hasSize(3);
		assertThat(prompts).filteredOn((r) -> r.getBodyAsString().contains("\"text\":\"" + QUESTION + "\"")).hasSize(1);
		assertThat(imageBodies(prompts)).containsExactlyInAnyOrder(base64(first), base64(second));
		// each call waits 600 ms for its answer: all three were asked before the first was answered
		long first0 = prompts.stream().map(LoggedRequest::getLoggedDate).min(Comparator.naturalOrder()).get().getTime();
		long last0 = prompts.stream().map(LoggedRequest::getLoggedDate).max(Comparator.naturalOrder()).get().getTime();
		assertThat(last0 - first0).isLessThan(550);
	}

	@Test
	void aMatchOnOneImageBlocksTheWholePromptAndTheModelNeverRuns() {
		byte[] clean = TestImages.png();
		byte[] flagged = TestImages.otherPng();
		answerImage(flagged, ModelArmorStubs.JAILBREAK);
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(clean))
					.media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(flagged)))
				.call()
				.content();

			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
			assertThat(screenings(context, "prompt", "blocked", "pi_and_jailbreak")).isEqualTo(1.0);
		});
	}

	@Test
	void aPromptOfOnlyAnImageIsScreened() {
		byte[] flagged = TestImages.png();
		answerImage(flagged, ModelArmorStubs.JAILBREAK);
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.messages(UserMessage.builder().text("").media(media(MimeTypeUtils.IMAGE_PNG, flagged)).build())
				.call()
				.content();

			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
		});
		assertThat(imageBodies(promptRequests(modelArmor))).containsExactly(base64(flagged));
	}

	@Test
	void aPdfIsScreenedAsAPdf() {
		byte[] pdf = "%PDF-1.7\n1 0 obj << >> endobj\n%%EOF".getBytes();
		this.runner.run((context) -> {
			model(context).answering(ANSWER);
			chatClient(context).prompt()
				.user((u) -> u.text("Summarise").media(new MimeType("application", "pdf"), new ByteArrayResource(pdf)))
				.call()
				.content();
			assertThat(model(context).receivedPrompts()).hasSize(1);
		});
		modelArmor.verify(1, com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteDataType", equalTo("PDF")))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteData", equalTo(base64(pdf)))));
	}

	@Test
	void aFakePdfIsNotScreenedAsOneButBlocked() {
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.user((u) -> u.text("Summarise")
					.media(new MimeType("application", "pdf"), new ByteArrayResource("not a pdf".getBytes())))
				.call()
				.content();
			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
		});
	}

	@Test
	void anAudioClipIsBlockedByDefaultWithAWarnLineAndTheMetric(CapturedOutput output) {
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(new MimeType("audio", "mpeg"), new ByteArrayResource(new byte[] { 1, 2 })))
				.call()
				.content();

			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
			assertThat(screenings(context, "prompt", "rejected", "none")).isEqualTo(1.0);
		});
		assertThat(imageBodies(promptRequests(modelArmor))).isEmpty();
		assertThat(output).contains("blocking the call (modelarmor.screening.unscreenable-media=block)")
			.contains("media_type=audio/mpeg reason=unsupported_type");
	}

	@Test
	void anAudioClipPassesUnscreenedWhenAllowedWithAWarnLineAndTheMetric(CapturedOutput output) {
		this.runner.withPropertyValues("modelarmor.screening.unscreenable-media=allow").run((context) -> {
			model(context).answering(ANSWER);
			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(new MimeType("audio", "mpeg"), new ByteArrayResource(new byte[] { 1, 2 })))
				.call()
				.content();

			assertThat(answer).isEqualTo(ANSWER);
			assertThat(model(context).receivedPrompts().get(0).getUserMessage().getMedia()).hasSize(1);
			assertThat(screenings(context, "prompt", "unscreened", "none")).isEqualTo(1.0);
		});
		assertThat(output).contains("letting it through unscreened (modelarmor.screening.unscreenable-media=allow)")
			.contains("media_type=audio/mpeg");
	}

	@Test
	void anImageByUrlIsBlockedAndNeverFetched(CapturedOutput output) {
		URI url = URI.create(imageHost.baseUrl() + "/cat.png?token=SECRET-TOKEN");
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(url).build()))
				.call()
				.content();

			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
		});
		imageHost.verify(0, anyRequestedFor(anyUrl()));
		assertThat(output).contains("reason=by_reference").doesNotContain("SECRET-TOKEN").doesNotContain(url.getPath());
	}

	@Test
	void anImageOverTheLimitIsBlockedEvenWithFailOpenAndUnscreenableMediaAllowed() {
		this.runner
			.withPropertyValues("modelarmor.screening.fail-open=true", "modelarmor.screening.unscreenable-media=allow")
			.run((context) -> {
				String answer = chatClient(context).prompt()
					.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(TestImages.oversizedPng())))
					.call()
					.content();

				assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
				assertThat(model(context).receivedPrompts()).isEmpty();
				assertThat(screenings(context, "prompt", "rejected", "none")).isEqualTo(1.0);
			});
		assertThat(imageBodies(promptRequests(modelArmor))).isEmpty();
	}

	@Test
	void withDeidentifyTheRedactedImageReplacesTheImageTheModelReads() {
		byte[] original = TestImages.png();
		byte[] redacted = TestImages.otherPng();
		answerImage(original, redacting(redacted));
		this.runner.withPropertyValues("modelarmor.spring-ai.advisor.on-match=deidentify").run((context) -> {
			model(context).answering(ANSWER);
			chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_JPEG, new ByteArrayResource(original)))
				.call()
				.content();

			UserMessage received = model(context).receivedPrompts().get(0).getUserMessage();
			assertThat(received.getText()).isEqualTo(QUESTION);
			assertThat(received.getMedia()).singleElement().satisfies((media) -> {
				assertThat(media.getDataAsByteArray()).isEqualTo(redacted);
				assertThat(media.getMimeType()).isEqualTo(MimeTypeUtils.IMAGE_PNG);
			});
			assertThat(screenings(context, "prompt", "deidentified", "sdp")).isEqualTo(1.0);
		});
	}

	@Test
	void withoutDeidentifyARedactedImageBlocks() {
		byte[] original = TestImages.png();
		answerImage(original, redacting(TestImages.otherPng()));
		this.runner.run((context) -> {
			String answer = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(original)))
				.call()
				.content();
			assertThat(answer).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
		});
	}

	@Test
	void imagesAreScreenedOnTheStreamPathToo() {
		byte[] flagged = TestImages.png();
		answerImage(flagged, ModelArmorStubs.JAILBREAK);
		this.runner.run((context) -> {
			model(context).streaming("Two ", "cats.");
			List<String> chunks = chatClient(context).prompt()
				.user((u) -> u.text(QUESTION).media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(flagged)))
				.stream()
				.content()
				.collectList()
				.block(java.time.Duration.ofSeconds(30));
			assertThat(String.join("", chunks)).isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL);
			assertThat(model(context).receivedPrompts()).isEmpty();
		});
	}

	static String redacting(byte[] redacted) {
		return """
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				 "filterResults": {"sdp": {"sdpFilterResult": {"redactResult": {"executionState": "EXECUTION_SUCCESS",
				  "matchState": "MATCH_FOUND", "redactedImage": "%s"}}}}}}""".formatted(base64(redacted));
	}

	static void answerImage(byte[] image, String json) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteData", equalTo(base64(image))))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteDataType", equalTo("IMAGE")))
			.willReturn(okJson(json)));
	}

	static Media media(MimeType type, byte[] data) {
		return Media.builder().mimeType(type).data(data).build();
	}

	static String base64(byte[] data) {
		return Base64.getEncoder().encodeToString(data);
	}

	static List<String> imageBodies(List<LoggedRequest> requests) {
		return requests.stream()
			.map(LoggedRequest::getBodyAsString)
			.filter((body) -> body.contains("\"byteDataType\":\"IMAGE\""))
			.map((body) -> body.replaceAll(".*\"byteData\":\"([^\"]*)\".*", "$1"))
			.toList();
	}

}
