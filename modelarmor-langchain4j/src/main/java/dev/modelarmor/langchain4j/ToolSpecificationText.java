package dev.modelarmor.langchain4j;

import java.util.Map;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import org.jspecify.annotations.Nullable;

/**
 * The words of a tool specification that a model reads: its name, its description, and every parameter's name,
 * description and enum values, however deeply nested (to a bound: a deeper schema is screened to that depth
 * and the rest, which no model reads either, is dropped by the withholding rule below).
 */
final class ToolSpecificationText {

	private static final int MAX_DEPTH = 32;

	private ToolSpecificationText() {
	}

	/**
	 * The text to screen.
	 * @return the text, or {@code null} when the schema nests deeper than screened, so that the tool is withheld
	 */
	static @Nullable String of(ToolSpecification specification) {
		StringBuilder words = new StringBuilder();
		append(words, specification.name());
		append(words, specification.description());
		JsonObjectSchema parameters = specification.parameters();
		return (parameters == null || appendSchema(parameters, words, 0)) ? words.toString() : null;
	}

	private static boolean appendSchema(JsonSchemaElement element, StringBuilder words, int depth) {
		if (depth > MAX_DEPTH) {
			return false;
		}
		append(words, element.description());
		if (element instanceof JsonObjectSchema object) {
			if (!appendProperties(object.properties(), words, depth)
					|| !appendProperties(object.definitions(), words, depth)) {
				return false;
			}
		}
		else if (element instanceof JsonArraySchema array && array.items() != null) {
			return appendSchema(array.items(), words, depth + 1);
		}
		else if (element instanceof JsonEnumSchema enumeration && enumeration.enumValues() != null) {
			enumeration.enumValues().forEach((value) -> append(words, value));
		}
		return true;
	}

	private static boolean appendProperties(@Nullable Map<String, JsonSchemaElement> properties, StringBuilder words,
			int depth) {
		if (properties == null) {
			return true;
		}
		for (Map.Entry<String, JsonSchemaElement> property : properties.entrySet()) {
			append(words, property.getKey());
			if (property.getValue() != null && !appendSchema(property.getValue(), words, depth + 1)) {
				return false;
			}
		}
		return true;
	}

	private static void append(StringBuilder words, @Nullable String text) {
		if (text != null && !text.isBlank()) {
			if (!words.isEmpty()) {
				words.append('\n');
			}
			words.append(text);
		}
	}

}
