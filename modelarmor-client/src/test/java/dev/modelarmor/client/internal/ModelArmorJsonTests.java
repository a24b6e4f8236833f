package dev.modelarmor.client.internal;

import dev.modelarmor.client.ByteDataType;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.RangeInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ModelArmorJson}.
 */
class ModelArmorJsonTests {

	@Test
	void mapperIsShared() {
		assertThat(ModelArmorJson.mapper()).isSameAs(ModelArmorJson.mapper());
	}

	@Test
	void writesBytesAsPaddedStandardBase64() {
		// 0xFB 0xFF encodes with '+' and '/' in the standard alphabet, '-' and '_' in the URL one.
		String json = ModelArmorJson.mapper()
			.writeValueAsString(DataItem.bytes(ByteDataType.TXT, new byte[] { (byte) 0xFB, (byte) 0xFF }));
		assertThat(json).contains("\"byteData\":\"+/8=\"");
	}

	@Test
	void writesPropertiesInDeclarationOrderAndLeavesOutNulls() {
		assertThat(ModelArmorJson.mapper().writeValueAsString(new SanitizeResponse(null))).isEqualTo("{}");
		assertThat(ModelArmorJson.mapper().writeValueAsString(new RangeInfo(5, 1)))
			.isEqualTo("{\"start\":5,\"end\":1}");
	}

}
