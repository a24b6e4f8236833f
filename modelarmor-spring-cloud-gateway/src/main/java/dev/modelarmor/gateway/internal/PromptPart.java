package dev.modelarmor.gateway.internal;

import java.util.List;

import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.media.MediaItem;

/**
 * An untrusted part of a request, screened before anything is forwarded: a message's text, or a medium.
 */
sealed interface PromptPart {

	/**
	 * One message's text (its text parts joined), screened as one prompt.
	 *
	 * @param phase {@link Phase#PROMPT} for a user's or a system's message, {@link Phase#TOOL_RESULT} for a tool's
	 * result sent back
	 * @param slots where the text sits: de-identified text goes into the first, the others emptied; no slot
	 * means the text cannot be rewritten (JSON of a tool's result, say)
	 */
	record Text(Phase phase, List<TextSlot> slots, String text) implements PromptPart {

		static Text of(Phase phase, List<TextSlot> slots) {
			StringBuilder text = new StringBuilder();
			for (TextSlot slot : slots) {
				if (!text.isEmpty()) {
					text.append('\n');
				}
				text.append(slot.text());
			}
			return new Text(phase, slots, text.toString());
		}

		boolean replaceable() {
			return !this.slots.isEmpty();
		}

		void replace(String deidentified) {
			for (int i = 0; i < this.slots.size(); i++) {
				this.slots.get(i).set((i == 0) ? deidentified : "");
			}
		}

	}

	/**
	 * An image, a document or another medium of a user's message.
	 *
	 * @param item the medium as the starter's media screening reads it
	 */
	record Media(MediaItem item) implements PromptPart {
	}

}
