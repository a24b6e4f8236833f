package dev.modelarmor.client;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Images: an {@code IMAGE} item only for bytes that are a JPEG, PNG or BMP image, its request body checked
 * field by field against the documented REST shape (the official schema jar, 0.29.0, predates
 * {@code IMAGE}), the 4 MiB limit before anything is sent, and a redacted image in the answer read only when
 * it is a valid image within the limit.
 */
class ImageItemTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	ModelArmorTemplate template;

	@BeforeEach
	void createClient() {
		this.template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(5)))
			.projectId("p")
			.location("l")
			.templateId("t")
			.build();
	}

	// --- which bytes are an image ---

	@Test
	void jpegPngAndBmpAreImagesByTheirFirstBytes() {
		assertThat(ImageFormat.detect(TestImages.jpeg())).isEqualTo(ImageFormat.JPEG);
		assertThat(ImageFormat.detect(TestImages.png())).isEqualTo(ImageFormat.PNG);
		assertThat(ImageFormat.detect(TestImages.bmp())).isEqualTo(ImageFormat.BMP);
		assertThat(DataItem.image(TestImages.bmp()).byteItem().byteDataType()).isEqualTo(ByteDataType.IMAGE);
	}

	@Test
	void bytesThatAreNoScreenableImageAreRefusedWhateverTheyClaim() {
		byte[] textStartingLikeBmp = "BM looks like a bitmap but is text, long enough".getBytes();
		byte[] truncatedPng = { (byte) 0x89, 'P', 'N', 'G' };
		for (byte[] notAnImage : List.of(TestImages.gif(), textStartingLikeBmp, truncatedPng, new byte[0],
				"%PDF-1.7".getBytes())) {
			assertThat(ImageFormat.detect(notAnImage)).isNull();
			assertThatIllegalArgumentException().isThrownBy(() -> DataItem.image(notAnImage))
				.withMessageContaining("JPEG, PNG or BMP");
			assertThatIllegalArgumentException().isThrownBy(() -> DataItem.bytes(ByteDataType.IMAGE, notAnImage));
		}
	}

	// --- the request, field by field ---

	@Test
	void anImagePromptIsSentAsAByteItemOfTypeImageInStandardBase64() {
		stubAnswer("{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", \"invocationResult\": \"SUCCESS\"}}");
		byte[] image = TestImages.jpeg();

		this.template.sanitizeUserPrompt(DataItem.image(image));

		JsonNode body = onlyBody();
		assertThat(fieldNames(body)).containsExactly("userPromptData");
		JsonNode data = body.get("userPromptData");
		assertThat(fieldNames(data)).containsExactly("byteItem");
		JsonNode byteItem = data.get("byteItem");
		assertThat(fieldNames(byteItem)).containsExactlyInAnyOrder("byteDataType", "byteData");
		assertThat(byteItem.get("byteDataType").isString()).isTrue();
		assertThat(byteItem.get("byteDataType").asString()).isEqualTo("IMAGE");
		String base64 = byteItem.get("byteData").asString();
		// proto3 JSON: bytes as standard base64 with padding, no line breaks, no URL alphabet
		assertThat(base64).isEqualTo(Base64.getEncoder().encodeToString(image)).doesNotContain("\n", "\r", "-", "_");
		assertThat(Base64.getDecoder().decode(base64)).isEqualTo(image);
	}

	@Test
	void anImageResponseIsSentAsModelResponseDataWithItsPrompt() {
		stubAnswer("{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", \"invocationResult\": \"SUCCESS\"}}");
		byte[] image = TestImages.png();

		this.template.sanitizeModelResponse(DataItem.image(image), "draw it");

		JsonNode body = onlyBody();
		assertThat(fieldNames(body)).containsExactlyInAnyOrder("modelResponseData", "userPrompt");
		assertThat(body.get("modelResponseData").get("byteItem").get("byteDataType").asString()).isEqualTo("IMAGE");
		assertThat(Base64.getDecoder().decode(body.get("modelResponseData").get("byteItem").get("byteData").asString()))
			.isEqualTo(image);
	}

	@Test
	void anImageOverTheLimitIsRefusedBeforeAnythingIsSent() {
		DataItem oversized = DataItem.image(TestImages.oversizedPng());

		assertThatExceptionOfType(ModelArmorInputTooLargeException.class)
			.isThrownBy(() -> this.template.sanitizeUserPrompt(oversized))
			.satisfies((ex) -> assertThat(ex.size()).isEqualTo(DataItem.MAX_BYTES + 1L));
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void toStringNamesTheKindAndSizeNeverTheBytes() {
		assertThat(DataItem.image(TestImages.png()).toString()).startsWith("DataItem[IMAGE, ").doesNotContain("PNG");
	}

	// --- the redacted image in the answer ---

	@Test
	void aRedactedImageInTheAnswerIsReadAsAnImageItem() {
		byte[] redacted = TestImages.otherPng();
		stubAnswer(redactAnswer(Base64.getEncoder().encodeToString(redacted)));

		SanitizationResult result = this.template.sanitizeUserPrompt(DataItem.image(TestImages.png()));

		SdpRedactResult redact = result.filterResults().get("sdp").sdpFilterResult().redactResult();
		assertThat(redact.matchState()).isEqualTo(FilterMatchState.MATCH_FOUND);
		assertThat(result.filterResults().get("sdp").matched()).isTrue();
		assertThat(redact.redactedImageItem()).hasValueSatisfying(
				(item) -> assertThat(item.byteItem()).isEqualTo(new DataItem.ByteItem(ByteDataType.IMAGE, redacted)));
		assertThat(redact.toString()).contains(redacted.length + " bytes").doesNotContain("PNG");
	}

	@Test
	void aRedactedImageThatIsNoImageOrTooLargeReadsAsNone() {
		String notAnImage = Base64.getEncoder().encodeToString("<script>alert(1)</script>".getBytes());
		String tooLarge = Base64.getEncoder().encodeToString(TestImages.oversizedPng());
		for (String hostile : List.of(notAnImage, tooLarge)) {
			modelArmor.resetAll();
			stubAnswer(redactAnswer(hostile));

			SanitizationResult result = this.template.sanitizeUserPrompt(DataItem.image(TestImages.png()));

			SdpRedactResult redact = result.filterResults().get("sdp").sdpFilterResult().redactResult();
			assertThat(redact.redactedImage()).isNull();
			assertThat(redact.redactedImageItem()).isEmpty();
			// the match stands: without a redacted image it can only block
			assertThat(result.verdict()).isEqualTo(SanitizationResult.Verdict.MATCHED);
		}
	}

	private static String redactAnswer(String base64) {
		return """
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				  "filterResults": {"sdp": {"sdpFilterResult": {"redactResult": {
				    "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				    "redactedImage": "%s",
				    "findings": [{"infoType": "EMAIL_ADDRESS", "likelihood": "LIKELY"}]}}}}}}
				""".formatted(base64);
	}

	private static void stubAnswer(String body) {
		modelArmor.stubFor(post(urlPathMatching("/v1/projects/p/locations/l/templates/t:sanitize.*"))
			.willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body)));
	}

	private static JsonNode onlyBody() {
		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(1);
		return JSON.readTree(events.get(0).getRequest().getBodyAsString());
	}

	private static List<String> fieldNames(JsonNode node) {
		return new ArrayList<>(node.propertyNames());
	}

}
