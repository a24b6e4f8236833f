package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.internal.Utf8;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;


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
 * Documents: the byte data type from a file name or media type, every type over the wire in the
 * official schema, and the 4 MiB input limit enforced before anything is sent.
 */
class DocumentTests {

	static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}
			""";

	static final List<String> EXTENSIONS = List.of("pdf", "docx", "docm", "dotx", "dotm", "xlsx", "xlsm", "xltx",
			"xltm", "pptx", "pptm", "potx", "potm", "txt", "csv");

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
		modelArmor.stubFor(post(urlPathMatching("/v1/projects/p/locations/l/templates/t:sanitize.*"))
			.willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(NO_MATCH)));
	}

	// --- the type from a file name ---

	@ParameterizedTest
	@CsvSource({ "pdf, PDF", "docx, WORD_DOCUMENT", "docm, WORD_DOCUMENT", "dotx, WORD_DOCUMENT",
			"dotm, WORD_DOCUMENT", "xlsx, EXCEL_DOCUMENT", "xlsm, EXCEL_DOCUMENT", "xltx, EXCEL_DOCUMENT",
			"xltm, EXCEL_DOCUMENT", "pptx, POWERPOINT_DOCUMENT", "pptm, POWERPOINT_DOCUMENT",
			"potx, POWERPOINT_DOCUMENT", "potm, POWERPOINT_DOCUMENT", "txt, TXT", "csv, CSV" })
	void fromFileNameKnowsEverySupportedExtensionInAnyCase(String extension, ByteDataType expected) {
		assertThat(ByteDataType.fromFileName("report." + extension)).isEqualTo(expected);
		assertThat(ByteDataType.fromFileName("REPORT." + extension.toUpperCase(Locale.ROOT))).isEqualTo(expected);
		assertThat(ByteDataType.fromFileName("Report." + Character.toUpperCase(extension.charAt(0))
				+ extension.substring(1))).isEqualTo(expected);
		assertThat(ByteDataType.fromFileName("archive.2024/v1.2/q3.final." + extension)).isEqualTo(expected);
		assertThat(ByteDataType.fromFileName("C:\\Users\\a.b\\q3." + extension)).isEqualTo(expected);
	}

	@Test
	void everyExtensionIsTested() {
		// fromFileName's message lists what it supports: the list above must be all of it.
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromFileName("x.unknown"))
			.satisfies((ex) -> assertThat(ex.getMessage().substring(ex.getMessage().indexOf('[')))
				.isEqualTo(EXTENSIONS.stream().sorted().toList().toString()));
	}

	@ParameterizedTest
	@ValueSource(strings = { "README", "reports.2024/README", "reports.2024\\README", "q3.", "archive.tar.gz",
			"picture.png", "report.pdf.exe", "report.pdf/", "" })
	void fromFileNameRejectsWhatItDoesNotScreenAndListsWhatItDoes(String fileName) {
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromFileName(fileName))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(EXTENSIONS)
				// The folder's dot is no extension.
				.doesNotContain("2024"));
	}

	@Test
	void aNameWithoutExtensionIsReportedAsSuch() {
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromFileName("reports.2024/README"))
			.withMessageStartingWith("Model Armor does not screen files without an extension; it screens [csv");
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromFileName("data.csv/notes.md"))
			.withMessageStartingWith("Model Armor does not screen '.md' files");
	}

	@Test
	void documentTakesTheTypeFromTheFileName() {
		byte[] pdf = "%PDF-1.7".getBytes(StandardCharsets.US_ASCII);

		DataItem item = DataItem.document("q3.PDF", pdf);

		assertThat(item.byteItem().byteDataType()).isEqualTo(ByteDataType.PDF);
		assertThat(item.byteItem().byteData()).isEqualTo(pdf);
		assertThat(item.text()).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> DataItem.document("q3.png", pdf));
	}

	// --- the type from a media type ---

	@ParameterizedTest
	@CsvSource({ "application/pdf, PDF",
			"application/vnd.openxmlformats-officedocument.wordprocessingml.document, WORD_DOCUMENT",
			"application/vnd.ms-word.document.macroEnabled.12, WORD_DOCUMENT",
			"application/vnd.openxmlformats-officedocument.wordprocessingml.template, WORD_DOCUMENT",
			"application/vnd.ms-word.template.macroEnabled.12, WORD_DOCUMENT",
			"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, EXCEL_DOCUMENT",
			"application/vnd.ms-excel.sheet.macroEnabled.12, EXCEL_DOCUMENT",
			"application/vnd.openxmlformats-officedocument.spreadsheetml.template, EXCEL_DOCUMENT",
			"application/vnd.ms-excel.template.macroEnabled.12, EXCEL_DOCUMENT",
			"application/vnd.openxmlformats-officedocument.presentationml.presentation, POWERPOINT_DOCUMENT",
			"application/vnd.ms-powerpoint.presentation.macroEnabled.12, POWERPOINT_DOCUMENT",
			"application/vnd.openxmlformats-officedocument.presentationml.template, POWERPOINT_DOCUMENT",
			"application/vnd.ms-powerpoint.template.macroEnabled.12, POWERPOINT_DOCUMENT", "text/plain, TXT",
			"text/csv, CSV" })
	void fromMediaTypeKnowsEverySupportedMediaType(String mediaType, ByteDataType expected) {
		assertThat(ByteDataType.fromMediaType(mediaType)).isEqualTo(expected);
		assertThat(ByteDataType.fromMediaType(mediaType.toUpperCase(Locale.ROOT))).isEqualTo(expected);
		assertThat(ByteDataType.fromMediaType(" " + mediaType + " ; charset=utf-8")).isEqualTo(expected);
	}

	@Test
	void fromMediaTypeIgnoresParameters() {
		assertThat(ByteDataType.fromMediaType("text/csv; charset=utf-8")).isEqualTo(ByteDataType.CSV);
		assertThat(ByteDataType.fromMediaType("text/plain;charset=\"UTF-8\";format=flowed")).isEqualTo(ByteDataType.TXT);
	}

	@ParameterizedTest
	@ValueSource(strings = { "image/png", "application/msword", "application/octet-stream", "text/html", "text",
			"", "; charset=utf-8" })
	void fromMediaTypeRejectsWhatItDoesNotScreenAndListsWhatItDoes(String mediaType) {
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromMediaType(mediaType))
			.withMessageContaining("application/pdf")
			.withMessageContaining("text/csv");
	}

	// --- every type over the wire ---

	@ParameterizedTest
	@EnumSource(value = ByteDataType.class, mode = EnumSource.Mode.EXCLUDE, names = { "IMAGE", "ZIP", "UNRECOGNIZED" })
	void everySendableTypeParsesStrictlyWithTheOfficialSchema(ByteDataType type) throws Exception {
		byte[] data = { 0, 1, 2, (byte) 0xfe, (byte) 0xff, 'x' };

		this.template.sanitizeUserPrompt(DataItem.bytes(type, data));

		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder();
		JsonFormat.parser().merge(onlyBody(), official);
		assertThat(official.getUserPromptData().getByteItem().getByteDataType().name()).isEqualTo(type.name());
		assertThat(official.getUserPromptData().getByteItem().getByteData().toByteArray()).isEqualTo(data);
	}

	@Test
	void imageIsSentByItsApiNameWhichSchema029DoesNotKnowYet() {
		this.template.sanitizeUserPrompt(DataItem.bytes(ByteDataType.IMAGE, TestImages.png()));

		assertThat(onlyBody()).contains("\"byteDataType\":\"IMAGE\"");
		// If this starts failing, the official schema learnt IMAGE: move it into the test above.
		assertThatExceptionOfType(InvalidProtocolBufferException.class).isThrownBy(() -> JsonFormat.parser()
			.merge(onlyBody(), com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder()));
	}

	@Test
	void aZipArchiveWithAFileLabelIsSentByGooglesNamesWhichSchema029DoesNotKnowYet() throws Exception {
		byte[] archive = { 'P', 'K', 3, 4, 20, 0, 0, 0 };

		this.template.sanitizeUserPrompt(DataItem.bytes(ByteDataType.ZIP, archive).withFileLabel("bundle.zip"));

		JsonNode sent = ModelArmorJson.mapper().readTree(onlyBody()).get("userPromptData").get("byteItem");
		assertThat(sent.get("byteDataType").stringValue()).isEqualTo("ZIP");
		assertThat(sent.get("fileLabel").stringValue()).isEqualTo("bundle.zip");
		assertThat(Base64.getDecoder().decode(sent.get("byteData").stringValue())).isEqualTo(archive);
		// If this starts failing, the official schema learnt ZIP and fileLabel: move them into the test above.
		assertThatExceptionOfType(InvalidProtocolBufferException.class).isThrownBy(() -> JsonFormat.parser()
			.merge(onlyBody(), com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder()));
	}

	// --- the 4 MiB limit ---

	@Test
	void textOfExactlyTheLimitInUtf8IsSent() {
		String text = "é".repeat(DataItem.MAX_BYTES / 2);
		assertThat(text.getBytes(StandardCharsets.UTF_8)).hasSize(DataItem.MAX_BYTES);

		this.template.sanitizeUserPrompt(text);
		this.template.sanitizeModelResponse(DataItem.text(text), null);

		modelArmor.verify(2, anyRequestedFor(anyUrl()));
	}

	@Test
	void bytesOfExactlyTheLimitAreSent() {
		this.template.sanitizeUserPrompt(DataItem.bytes(ByteDataType.PDF, new byte[DataItem.MAX_BYTES]));
		this.template.sanitizeModelResponse(DataItem.bytes(ByteDataType.PDF, new byte[DataItem.MAX_BYTES]), "q");

		modelArmor.verify(2, anyRequestedFor(anyUrl()));
	}

	@Test
	void oneUtf8ByteOverTheLimitIsRejectedBeforeSending() {
		// Half as many chars as the limit, but each 'é' is 2 bytes in UTF-8: one byte over.
		String text = "é".repeat(DataItem.MAX_BYTES / 2) + "a";
		assertThat(text.length()).isLessThan(DataItem.MAX_BYTES);

		assertOverTheLimit((t) -> t.sanitizeUserPrompt(text), "prompt");
		assertOverTheLimit((t) -> t.sanitizeUserPrompt(DataItem.text(text)), "prompt");
		assertOverTheLimit((t) -> t.sanitizeUserPrompt(DataItem.text(text), SanitizeOptions.multiLanguageDetection()),
				"prompt");
		assertOverTheLimit((t) -> t.sanitizeModelResponse(text), "model response");
		assertOverTheLimit((t) -> t.sanitizeModelResponse(text, "the prompt"), "model response");
		assertOverTheLimit((t) -> t.sanitizeModelResponse(DataItem.text(text), null, SanitizeOptions.NONE),
				"model response");
	}

	@Test
	void oneByteOverTheLimitIsRejectedBeforeSending() {
		DataItem document = DataItem.bytes(ByteDataType.CSV, new byte[DataItem.MAX_BYTES + 1]);

		assertOverTheLimit((t) -> t.sanitizeUserPrompt(document), "prompt");
		assertOverTheLimit((t) -> t.sanitizeModelResponse(document, null), "model response");
		assertOverTheLimit((t) -> t.sanitizeModelResponse(document, "q", SanitizeOptions.NONE), "model response");
	}

	@Test
	void fourByteCharactersCountAsFour() {
		String emoji = "😀"; // a surrogate pair: 2 chars, 4 bytes
		String text = emoji.repeat(DataItem.MAX_BYTES / 4);
		assertThat(DataItem.text(text).sizeInBytes()).isEqualTo(DataItem.MAX_BYTES);

		assertOverTheLimit((t) -> t.sanitizeUserPrompt(text + "a"), "prompt");
	}

	private void assertOverTheLimit(Consumer<ModelArmorTemplate> call, String what) {
		assertThatExceptionOfType(ModelArmorInputTooLargeException.class).isThrownBy(() -> call.accept(this.template))
			.satisfies((ex) -> {
				assertThat(ex.size()).isEqualTo(DataItem.MAX_BYTES + 1L);
				assertThat(ex.limit()).isEqualTo(DataItem.MAX_BYTES);
				assertThat(ex.attempts()).isZero();
			})
			.withMessageContaining(what)
			.withMessageContaining(Long.toString(DataItem.MAX_BYTES + 1L))
			.withMessageContaining(Integer.toString(DataItem.MAX_BYTES));
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	// --- UTF-8 counting ---

	@Test
	void utf8LengthEqualsTheEncodedLengthForRandomWellFormedText() {
		SplittableRandom random = new SplittableRandom(20260101);
		for (int n = 0; n < 2_000; n++) {
			StringBuilder text = new StringBuilder();
			int codePoints = random.nextInt(40);
			for (int i = 0; i < codePoints; i++) {
				text.appendCodePoint(randomScalarValue(random));
			}
			String s = text.toString();
			assertThat(Utf8.length(s)).as("UTF-8 length of %s", Arrays.toString(s.codePoints().toArray()))
				.isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
			assertThat(DataItem.text(s).sizeInBytes()).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	@Test
	void utf8LengthAtTheEncodingBoundaries() {
		for (int codePoint : new int[] { 0, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000,
				0x10ffff }) {
			String s = new String(Character.toChars(codePoint));
			assertThat(Utf8.length(s)).as("U+%04X", codePoint).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	/**
	 * A lone surrogate is not text: Java encodes it as '?' (1 byte). Utf8 counts it as 3 bytes, what a
	 * lenient encoder writes, so the limit check can only over-count, never let too much through.
	 */
	@Test
	void aLoneSurrogateIsCountedAsThreeBytesWhichNeverUnderCounts() {
		for (String s : List.of("\ud800", "\udc00", "a\ud83d", "\ude00b", "\ude00\ud83d")) {
			assertThat(Utf8.length(s)).isEqualTo(3L * s.length() - s.chars().filter((c) -> c < 0x80).count() * 2);
			assertThat(Utf8.length(s)).isGreaterThanOrEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	private static int randomScalarValue(SplittableRandom random) {
		return switch (random.nextInt(4)) {
			case 0 -> random.nextInt(0x80);
			case 1 -> random.nextInt(0x80, 0x800);
			case 2 -> {
				int c = random.nextInt(0x800, 0x10000 - 0x800);
				yield (c >= 0xd800) ? c + 0x800 : c; // skip the surrogates
			}
			default -> random.nextInt(0x10000, 0x110000);
		};
	}

	private static String onlyBody() {
		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(1);
		return events.get(0).getRequest().getBodyAsString();
	}

}
