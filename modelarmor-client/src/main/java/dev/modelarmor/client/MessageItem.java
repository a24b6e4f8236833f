package dev.modelarmor.client;

import java.util.Objects;

/**
 * A message that a filter attached to its result.
 *
 * <p>{@link #toString()} shows only the type and the length: a message may quote the screened
 * content.
 *
 * @param messageType the severity; {@code MESSAGE_TYPE_UNSPECIFIED} when absent
 * @param message the message text; empty when absent
 */
public record MessageItem(MessageType messageType, String message) {

	/**
	 * Creates a message item.
	 * @param messageType the severity
	 * @param message the message text
	 */
	public MessageItem {
		// Jackson passes null for an absent field.
		messageType = Objects.requireNonNullElse(messageType, MessageType.MESSAGE_TYPE_UNSPECIFIED);
		message = Objects.requireNonNullElse(message, "");
	}

	@Override
	public String toString() {
		return "MessageItem[" + this.messageType + ", " + this.message.length() + " chars]";
	}

}
