package dev.modelarmor.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelarmor.client.SanitizationResult;
import tools.jackson.core.Base64Variants;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a {@link SanitizationResult} as Model Armor's {@code sanitizeUserPrompt} /
 * {@code sanitizeModelResponse} answer, {@code {"sanitizationResult": {...}}}, in the proto3 JSON mapping:
 * the result's record components are the API's field names, and, as proto3 leaves out default values,
 * {@code null} fields and enum values ending in {@code _UNSPECIFIED} (every proto enum's zero) are left
 * out. So {@link ModelArmorResults#noVerdict()} is an answer without {@code filterMatchState}.
 */
final class SanitizeResponseJson {

	private static final String UNSPECIFIED = "_UNSPECIFIED";

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
		.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL)
			.withContentInclusion(JsonInclude.Include.NON_NULL))
		.defaultBase64Variant(Base64Variants.MIME_NO_LINEFEEDS)
		.disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
		.build();

	private SanitizeResponseJson() {
	}

	/**
	 * The answer that carries a result.
	 * @param result the result
	 * @return the response JSON
	 */
	static ObjectNode of(SanitizationResult result) {
		ObjectNode response = MAPPER.createObjectNode();
		response.set("sanitizationResult", withoutDefaults(MAPPER.valueToTree(result)));
		return response;
	}

	/**
	 * The answer as bytes.
	 * @param result the result
	 * @return UTF-8 JSON
	 */
	static byte[] bytes(SanitizationResult result) {
		return MAPPER.writeValueAsBytes(of(result));
	}

	private static JsonNode withoutDefaults(JsonNode node) {
		if (node instanceof ObjectNode object) {
			List<String> unspecified = new ArrayList<>();
			for (Map.Entry<String, JsonNode> field : object.properties()) {
				if (field.getValue().isString() && field.getValue().stringValue().endsWith(UNSPECIFIED)) {
					unspecified.add(field.getKey());
				}
				else {
					withoutDefaults(field.getValue());
				}
			}
			unspecified.forEach(object::remove);
		}
		else if (node instanceof ArrayNode array) {
			array.forEach(SanitizeResponseJson::withoutDefaults);
		}
		return node;
	}

}
