package dev.modelarmor.gateway.internal;

import java.util.List;

/**
 * One generation of an answer (a choice, a candidate): its text, screened as the model's response and
 * de-identified in place, and its tool calls' names and arguments, screened as model output.
 *
 * @param slots where the generation's text sits, in order
 * @param toolCalls the names and arguments of its tool calls, one per line; empty when none
 */
record AnswerPart(List<TextSlot> slots, String toolCalls) {

	String text() {
		StringBuilder text = new StringBuilder();
		for (TextSlot slot : this.slots) {
			text.append(slot.text());
		}
		return text.toString();
	}

	void replace(String deidentified) {
		for (int i = 0; i < this.slots.size(); i++) {
			this.slots.get(i).set((i == 0) ? deidentified : "");
		}
	}

}
