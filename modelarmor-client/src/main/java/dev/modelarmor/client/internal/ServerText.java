package dev.modelarmor.client.internal;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Makes text that a server sent safe to put in an exception message or a log line: nothing in it can
 * start a new line (forging log entries), move the cursor or colour a terminal (ANSI escapes), reorder
 * what a reader sees (bidirectional controls such as U+202E), or make the line arbitrarily long.
 */
public final class ServerText {

	/** A {@code google.rpc.Code} name such as {@code INVALID_ARGUMENT}, and nothing else. */
	private static final Pattern STATUS_NAME = Pattern.compile("[A-Z_]{1,64}");

	private static final String TRUNCATED = "…";

	private ServerText() {
	}

	/**
	 * The text with every run of control, format (bidirectional and zero-width marks), line and
	 * paragraph separator, unpaired surrogate and unassigned characters replaced by one space, stripped,
	 * and cut after {@code maxLength} characters with an ellipsis. Reads no further into the text than
	 * that, however long it is.
	 * @param text the text
	 * @param maxLength the most characters kept (a surrogate pair is kept whole and counts as two)
	 * @return the printable text
	 */
	public static String printable(String text, int maxLength) {
		StringBuilder printable = new StringBuilder(Math.min(text.length(), maxLength + TRUNCATED.length()));
		boolean pendingSpace = false;
		int i = 0;
		while (i < text.length()) {
			int codePoint = text.codePointAt(i);
			i += Character.charCount(codePoint);
			if (!isPrintable(codePoint)) {
				pendingSpace = true;
				continue;
			}
			int needed = Character.charCount(codePoint) + ((pendingSpace && printable.length() > 0) ? 1 : 0);
			if (printable.length() + needed > maxLength) {
				return printable.append(TRUNCATED).toString();
			}
			if (pendingSpace && printable.length() > 0) {
				printable.append(' ');
			}
			pendingSpace = false;
			printable.appendCodePoint(codePoint);
		}
		return printable.toString().strip();
	}

	/**
	 * The status when it looks like a Google status name ({@code [A-Z_]{1,64}}).
	 * @param status what the server sent as the status
	 * @return the status, or {@code null} when absent or anything else
	 */
	public static @Nullable String statusName(@Nullable String status) {
		return (status != null && STATUS_NAME.matcher(status).matches()) ? status : null;
	}

	private static boolean isPrintable(int codePoint) {
		return switch (Character.getType(codePoint)) {
			case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
					Character.SURROGATE, Character.UNASSIGNED -> false;
			default -> true;
		};
	}

}
