package dev.modelarmor.gateway.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The strict JSON of the filter. A duplicate property is refused, not resolved: parsers disagree on which
 * one wins, and the model must read the text that was screened. Numbers are kept exactly, since what is
 * forwarded is the screened tree written again.
 */
final class Json {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private Json() {
	}

	/**
	 * Reads a JSON object.
	 * @param json the bytes
	 * @param what names the input in the error, e.g. "the request body"
	 * @return the object
	 * @throws BadInput when the bytes are no JSON object
	 */
	static ObjectNode object(byte[] json, String what) {
		JsonNode node;
		try {
			node = MAPPER.readTree(json);
		}
		catch (JacksonException ex) {
			throw new BadInput(what + " is not valid JSON");
		}
		if (!(node instanceof ObjectNode object)) {
			throw new BadInput(what + " is not a JSON object");
		}
		return object;
	}

	static ObjectNode object(String json, String what) {
		return object(json.getBytes(StandardCharsets.UTF_8), what);
	}

	static byte[] bytes(JsonNode node) {
		return MAPPER.writeValueAsBytes(node);
	}

	static String string(JsonNode node) {
		return MAPPER.writeValueAsString(node);
	}

	static ObjectNode newObject() {
		return JsonNodeFactory.instance.objectNode();
	}

	/** The objects of an array property; absent or null is none, anything else but objects is bad input. */
	static List<ObjectNode> objects(JsonNode owner, String field, String what) {
		JsonNode value = owner.get(field);
		if (value == null || value.isNull()) {
			return List.of();
		}
		if (!(value instanceof ArrayNode array)) {
			throw new BadInput(what + " is not an array");
		}
		List<ObjectNode> objects = new ArrayList<>(array.size());
		for (JsonNode element : array) {
			if (!(element instanceof ObjectNode object)) {
				throw new BadInput(what + " holds something other than objects");
			}
			objects.add(object);
		}
		return objects;
	}

	/** An object property; absent or null is {@code null}, anything else but an object is bad input. */
	static @org.jspecify.annotations.Nullable ObjectNode objectOrNull(JsonNode owner, String field, String what) {
		JsonNode value = owner.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!(value instanceof ObjectNode object)) {
			throw new BadInput(what + " is not an object");
		}
		return object;
	}

	/** A string property; absent or null is {@code null}, anything else but a string is bad input. */
	static @org.jspecify.annotations.Nullable String stringOrNull(JsonNode owner, String field, String what) {
		JsonNode value = owner.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new BadInput(what + " is not a string");
		}
		return value.stringValue();
	}

}
