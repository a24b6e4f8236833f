package dev.modelarmor.gateway.internal;

import java.util.List;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a piece of text sits in a request, an answer or an event: a string property of a JSON object, which
 * de-identified text replaces in place.
 *
 * @param owner the object
 * @param field the property
 */
record TextSlot(ObjectNode owner, String field) {

	String text() {
		return this.owner.path(this.field).asString("");
	}

	void set(String text) {
		this.owner.put(this.field, text);
	}

	/**
	 * The text of a property that holds a string or an array of parts, as a message's {@code content} does in
	 * Chat Completions and Messages: a string is one slot, each part of an array is handed on.
	 * @param owner the object
	 * @param field the property; absent or null: nothing
	 * @param what the property as an error names it, e.g. {@code a message's content}
	 * @param slots where a string's slot goes
	 * @param part what reads each part of an array
	 * @throws BadInput when the property is neither a string nor an array
	 */
	static void stringOrParts(ObjectNode owner, String field, String what, List<TextSlot> slots,
			Consumer<ObjectNode> part) {
		JsonNode value = owner.get(field);
		if (value != null && value.isString()) {
			slots.add(new TextSlot(owner, field));
		}
		else if (value instanceof ArrayNode) {
			Json.objects(owner, field, what).forEach(part);
		}
		else if (value != null && !value.isNull()) {
			throw new BadInput(what + " is neither a string nor an array");
		}
	}

}
