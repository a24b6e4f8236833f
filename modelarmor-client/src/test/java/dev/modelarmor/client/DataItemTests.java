package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;

import dev.modelarmor.client.internal.ModelArmorJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DataItem}.
 */
class DataItemTests {

	private static final String SECRET = "SECRET-4711";

	@Test
	void textItemHoldsTextOnly() {
		DataItem item = DataItem.text("hello");
		assertThat(item.text()).isEqualTo("hello");
		assertThat(item.byteItem()).isNull();
	}

	@Test
	void bytesItemCopiesTheArrayOnTheWayInAndOut() {
		byte[] data = { 1, 2, 3 };
		DataItem item = DataItem.bytes(ByteDataType.PDF, data);
		data[0] = 9;
		assertThat(item.byteItem().byteData()).containsExactly(1, 2, 3);
		item.byteItem().byteData()[1] = 9;
		assertThat(item.byteItem().byteData()).containsExactly(1, 2, 3);
		assertThat(item.byteItem().byteDataType()).isEqualTo(ByteDataType.PDF);
		assertThat(item.byteItem().size()).isEqualTo(3);
		assertThat(item.text()).isNull();
	}

	@Test
	void bytesItemsAreEqualByContent() {
		DataItem first = DataItem.bytes(ByteDataType.CSV, new byte[] { 1, 2 });
		DataItem second = DataItem.bytes(ByteDataType.CSV, new byte[] { 1, 2 });
		assertThat(first).isEqualTo(second).hasSameHashCodeAs(second);
		assertThat(first).isNotEqualTo(DataItem.bytes(ByteDataType.CSV, new byte[] { 1, 3 }));
		assertThat(first).isNotEqualTo(DataItem.bytes(ByteDataType.TXT, new byte[] { 1, 2 }));
		assertThat(DataItem.text("a")).isEqualTo(DataItem.text("a")).isNotEqualTo(DataItem.text("b"));
	}

	@Test
	void toStringShowsKindAndSizeButNeverTheContent() {
		assertThat(DataItem.text(SECRET)).hasToString("DataItem[text, 11 chars]");
		DataItem bytes = DataItem.bytes(ByteDataType.PDF, SECRET.getBytes(StandardCharsets.UTF_8));
		assertThat(bytes).hasToString("DataItem[PDF, 11 bytes]");
		assertThat(bytes.byteItem().toString()).doesNotContain(SECRET).contains("PDF", "11 bytes");
	}

	@Test
	void unrecognizedTypeCannotBeSent() {
		assertThatIllegalArgumentException().isThrownBy(() -> DataItem.bytes(ByteDataType.UNRECOGNIZED, new byte[0]));
	}

	@Test
	void textAndBytesTogetherAreRejected() {
		DataItem.ByteItem bytes = new DataItem.ByteItem(ByteDataType.PDF, new byte[] { 1 });
		assertThatIllegalArgumentException().isThrownBy(() -> new DataItem("text", bytes));
	}

	@Test
	void absentByteFieldsBecomeDefaults() {
		DataItem.ByteItem item = new DataItem.ByteItem(null, null);
		assertThat(item.byteDataType()).isEqualTo(ByteDataType.BYTE_ITEM_TYPE_UNSPECIFIED);
		assertThat(item.byteData()).isEmpty();
	}

	@Test
	void serializesAsTheApiDefines() throws Exception {
		assertThat(ModelArmorJson.mapper().writeValueAsString(DataItem.text("hi"))).isEqualTo("{\"text\":\"hi\"}");
		assertThat(ModelArmorJson.mapper()
			.writeValueAsString(DataItem.bytes(ByteDataType.PDF, "%PDF".getBytes(StandardCharsets.US_ASCII))))
			.isEqualTo("{\"byteItem\":{\"byteDataType\":\"PDF\",\"byteData\":\"JVBERg==\"}}");
	}

	@Test
	void readsBothKindsAndAnUnknownKind() {
		assertThat(ModelArmorJson.mapper().readValue("{\"text\":\"hi\"}", DataItem.class))
			.isEqualTo(DataItem.text("hi"));
		assertThat(ModelArmorJson.mapper()
			.readValue("{\"byteItem\":{\"byteDataType\":\"PDF\",\"byteData\":\"JVBERg==\"}}", DataItem.class))
			.isEqualTo(DataItem.bytes(ByteDataType.PDF, "%PDF".getBytes(StandardCharsets.US_ASCII)));
		DataItem unknown = ModelArmorJson.mapper().readValue("{\"imageItem\":{\"x\":1}}", DataItem.class);
		assertThat(unknown.text()).isNull();
		assertThat(unknown.byteItem()).isNull();
	}

	@Test
	void aFileLabelTravelsAsGoogleDocumentsIt() throws Exception {
		DataItem labelled = DataItem.bytes(ByteDataType.PDF, "%PDF".getBytes(StandardCharsets.US_ASCII))
			.withFileLabel("q3-report.pdf");

		assertThat(ModelArmorJson.mapper().writeValueAsString(labelled)).isEqualTo(
				"{\"byteItem\":{\"byteDataType\":\"PDF\",\"byteData\":\"JVBERg==\",\"fileLabel\":\"q3-report.pdf\"}}");
		assertThat(ModelArmorJson.mapper().readValue(
				"{\"byteItem\":{\"byteDataType\":\"PDF\",\"byteData\":\"JVBERg==\",\"fileLabel\":\"q3-report.pdf\"}}",
				DataItem.class))
			.isEqualTo(labelled);
		assertThat(labelled.byteItem().fileLabel()).isEqualTo("q3-report.pdf");
		assertThat(labelled).isNotEqualTo(DataItem.bytes(ByteDataType.PDF, "%PDF".getBytes(StandardCharsets.US_ASCII)));
		assertThat(labelled.toString()).doesNotContain("q3");
		assertThatIllegalArgumentException().isThrownBy(() -> DataItem.text("hi").withFileLabel("x"));
	}

	@Test
	void aZipItemTravelsByGooglesNameAndMustHoldAnArchive() throws Exception {
		byte[] archive = { 'P', 'K', 3, 4, 20, 0 };
		byte[] empty = { 'P', 'K', 5, 6, 0, 0 };

		assertThat(ModelArmorJson.mapper().writeValueAsString(DataItem.bytes(ByteDataType.ZIP, archive)))
			.isEqualTo("{\"byteItem\":{\"byteDataType\":\"ZIP\",\"byteData\":\"UEsDBBQA\"}}");
		assertThat(ModelArmorJson.mapper().readValue("{\"byteItem\":{\"byteDataType\":\"ZIP\",\"byteData\":\"UEsDBBQA\"}}",
				DataItem.class).byteItem().byteDataType()).isEqualTo(ByteDataType.ZIP);
		assertThat(DataItem.bytes(ByteDataType.ZIP, empty).byteItem().size()).isEqualTo(6);
		assertThatIllegalArgumentException().isThrownBy(() -> DataItem.bytes(ByteDataType.ZIP, "%PDF-1.7".getBytes(StandardCharsets.US_ASCII)))
			.withMessage("The bytes of a ZIP item are no ZIP archive");
		assertThatIllegalArgumentException().isThrownBy(() -> DataItem.bytes(ByteDataType.ZIP, new byte[] { 'P', 'K' }));
		// An archive is never typed as ZIP from its name or media type.
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromFileName("bundle.zip"));
		assertThatIllegalArgumentException().isThrownBy(() -> ByteDataType.fromMediaType("application/zip"));
	}

}
