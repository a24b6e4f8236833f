package dev.modelarmor.ai.tool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * What a model reads of a tool's definition, as text to screen: its name, its description and the words
 * of its input JSON schema (parameter names, descriptions, titles, enum values, defaults, examples),
 * one a line. The schema's keywords are left out ({@code type}, {@code $schema}, ...), so that only what
 * its author wrote is screened. A schema that is not JSON is screened as it is: the model reads it
 * anyway.
 */
final class ModelArmorToolDefinitionText {

	/**
	 * String values of these keys are JSON Schema vocabulary, not words for the model; a parameter of the
	 * same name has an object as its value, and is read.
	 */
	private static final Set<String> KEYWORD_VALUED = Set.of("type", "$schema", "$id", "$ref", "format");

	/** Past this depth a hostile schema's words are screened as the raw schema instead. */
	private static final int MAX_DEPTH = 64;

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final int MAX_LOGGED_NAME = 64;

	private ModelArmorToolDefinitionText() {
	}

	/**
	 * The text of a definition to screen.
	 * @param definition the tool's definition
	 * @return its name, description and schema words, one a line
	 */
	static String of(ToolDefinition definition) {
		StringBuilder text = new StringBuilder();
		text.append(nullToEmpty(definition.name())).append('\n').append(nullToEmpty(definition.description()));
		String schema = definition.inputSchema();
		if (schema == null || schema.isBlank()) {
			return text.toString();
		}
		StringBuilder words = new StringBuilder();
		try {
			if (appendWords(MAPPER.readTree(schema), words, 0)) {
				return text.append(words).toString();
			}
		}
		catch (JacksonException ex) {
			// not JSON: the model reads it as it is, so it is screened as it is
		}
		return text.append('\n').append(schema).toString();
	}

	/**
	 * A key that changes when anything the model reads of the definition changes: the SHA-256 of its
	 * name, description and schema, each length-prefixed so that no two definitions share it.
	 * @param definition the tool's definition
	 * @return the key, in hex
	 */
	static String key(ToolDefinition definition) {
		MessageDigest digest = sha256();
		for (String part : new String[] { definition.name(), definition.description(), definition.inputSchema() }) {
			byte[] bytes = nullToEmpty(part).getBytes(StandardCharsets.UTF_8);
			digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
			digest.update((byte) ':');
			digest.update(bytes);
		}
		return HexFormat.of().formatHex(digest.digest());
	}

	/**
	 * A tool's name as it may go into a log line: an MCP server chooses it, so anything but letters,
	 * digits and {@code _-.:/} becomes {@code ?}, and it is cut after 64 characters.
	 * @param name the tool's name
	 * @return the name, safe to log
	 */
	static String loggable(@Nullable String name) {
		String value = nullToEmpty(name);
		StringBuilder safe = new StringBuilder(Math.min(value.length(), MAX_LOGGED_NAME + 1));
		for (int i = 0; i < value.length() && safe.length() < MAX_LOGGED_NAME; i++) {
			char c = value.charAt(i);
			boolean plain = (c < 128) && (Character.isLetterOrDigit(c) || "_-.:/".indexOf(c) >= 0);
			safe.append(plain ? c : '?');
		}
		if (value.length() > MAX_LOGGED_NAME) {
			safe.append('…');
		}
		return safe.toString();
	}

	/** Appends the schema's words; false when the schema is nested deeper than is worth walking. */
	private static boolean appendWords(JsonNode node, StringBuilder words, int depth) {
		if (depth > MAX_DEPTH) {
			return false;
		}
		if (node.isString()) {
			words.append('\n').append(node.asString());
			return true;
		}
		if (node.isArray()) {
			for (JsonNode element : node) {
				if (!appendWords(element, words, depth + 1)) {
					return false;
				}
			}
			return true;
		}
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				if (KEYWORD_VALUED.contains(field.getKey()) && field.getValue().isString()) {
					continue;
				}
				if (!isVocabulary(field.getKey())) {
					words.append('\n').append(field.getKey());
				}
				if (!appendWords(field.getValue(), words, depth + 1)) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Keys of the JSON Schema vocabulary; every other key is a word its author chose (a parameter's
	 * name), which the model reads.
	 */
	private static boolean isVocabulary(String key) {
		return switch (key) {
			case "properties", "required", "description", "title", "items", "enum", "const", "default", "examples",
					"additionalProperties", "anyOf", "oneOf", "allOf", "not", "$defs", "definitions", "minimum",
					"maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
					"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "nullable" ->
				true;
			default -> false;
		};
	}

	private static String nullToEmpty(@Nullable String text) {
		return (text != null) ? text : "";
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

}
