package dev.modelarmor.gateway.internal;

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

}
