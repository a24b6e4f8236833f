package dev.modelarmor.gateway.internal;

import org.jspecify.annotations.Nullable;

/**
 * One server-sent event as it arrived: its raw text, blank line included, kept to forward it byte for
 * byte, and its fields.
 *
 * @param raw the event as received, with the blank line that ended it
 * @param name the {@code event:} field, or {@code null}
 * @param data the {@code data:} lines joined by line feeds, or {@code null} when there were none
 */
record SseEvent(String raw, @Nullable String name, @Nullable String data) {

	/**
	 * Reads the fields of an event's raw text (lines ending in CR LF, LF or CR).
	 * @param raw the raw event
	 * @return the event
	 */
	static SseEvent parse(String raw) {
		String name = null;
		StringBuilder data = null;
		for (String line : raw.split("\r\n|\n|\r", -1)) {
			if (line.isEmpty() || line.startsWith(":")) {
				continue;
			}
			int colon = line.indexOf(':');
			String field = (colon < 0) ? line : line.substring(0, colon);
			String value = (colon < 0) ? "" : line.substring(colon + 1);
			if (value.startsWith(" ")) {
				value = value.substring(1);
			}
			if (field.equals("event")) {
				name = value;
			}
			else if (field.equals("data")) {
				data = (data == null) ? new StringBuilder(value) : data.append('\n').append(value);
			}
		}
		return new SseEvent(raw, name, (data != null) ? data.toString() : null);
	}

	/** An event written anew, with a line feed framing. */
	static String write(@Nullable String name, String data) {
		StringBuilder event = new StringBuilder();
		if (name != null) {
			event.append("event: ").append(name).append('\n');
		}
		for (String line : data.split("\r\n|\n|\r", -1)) {
			event.append("data: ").append(line).append('\n');
		}
		return event.append('\n').toString();
	}

}
