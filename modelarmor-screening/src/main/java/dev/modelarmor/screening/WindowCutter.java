package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts text into overlapping windows of at most {@link WindowSettings#size()} bytes, as
 * {@link NormalizedUtf8} counts them.
 *
 * <p>Windows cover the text exactly: the first starts at its beginning, the last ends at its end, and
 * each one starts before the previous one ends, sharing at least {@link WindowSettings#overlap()}
 * bytes with it, so that a span shorter than the overlap always lies whole in one window. Cuts fall
 * between code points, never inside a surrogate pair; within the last tenth of a window they prefer a
 * line break, then other white space, and windows that overlap prefer to start a word, so that words and
 * entities (a name, a card number) are split less often.
 */
final class WindowCutter {

	private WindowCutter() {
	}

	/**
	 * Cuts a text into windows. Stops as soon as more than {@link WindowSettings#maxWindows()} windows
	 * would be needed, so that the work done on text that is refused stays bounded.
	 * @param text the text
	 * @param settings the window size, overlap and most windows
	 * @return the windows, or the first {@code maxWindows} of them when the text needs more
	 */
	static Plan split(String text, WindowSettings settings) {
		int length = text.length();
		int zone = settings.size() / 10;
		List<Window> windows = new ArrayList<>();
		int start = 0;
		int previousEnd = 0;
		while (true) {
			int hardEnd = hardEnd(text, start, settings.size());
			if (hardEnd == length) {
				windows.add(new Window(start, length));
				return new Plan(windows, true);
			}
			if (hardEnd <= previousEnd) {
				// Unreachable with valid settings: the overlap is at most half a window.
				throw new IllegalStateException("A window would not move past the previous one");
			}
			int end = preferredEnd(text, start, hardEnd, zone);
			if (end <= previousEnd) {
				end = hardEnd;
			}
			windows.add(new Window(start, end));
			if (windows.size() == settings.maxWindows()) {
				return new Plan(windows, false);
			}
			previousEnd = end;
			start = nextStart(text, start, end, settings.overlap(), zone);
		}
	}

	/**
	 * The end of a text that is at most a given number of bytes long, cut between code points.
	 * @param text the text
	 * @param bytes the most bytes to keep
	 * @return the text itself when it is short enough, else its last part that is
	 */
	static String tail(String text, int bytes) {
		int start = text.length();
		long kept = 0;
		while (start > 0) {
			int codePoint = Character.codePointBefore(text, start);
			int cost = NormalizedUtf8.cost(codePoint);
			if (kept + cost > bytes) {
				break;
			}
			kept += cost;
			start -= Character.charCount(codePoint);
		}
		return text.substring(start);
	}

	/** The end of the longest run of whole code points from {@code start} that fits in {@code size} bytes. */
	private static int hardEnd(String text, int start, int size) {
		int end = start;
		long used = 0;
		while (end < text.length()) {
			int codePoint = text.codePointAt(end);
			int cost = NormalizedUtf8.cost(codePoint);
			if (used + cost > size) {
				break;
			}
			used += cost;
			end += Character.charCount(codePoint);
		}
		return end;
	}

	/**
	 * Just after the last line break, else the last other white space, within {@code zone} bytes before
	 * {@code hardEnd}; {@code hardEnd} when there is none.
	 */
	private static int preferredEnd(String text, int start, int hardEnd, int zone) {
		int space = -1;
		int cut = hardEnd;
		long scanned = 0;
		while (cut > start) {
			int codePoint = text.codePointBefore(cut);
			scanned += NormalizedUtf8.cost(codePoint);
			if (scanned > zone) {
				break;
			}
			if (isLineBreak(codePoint)) {
				return cut;
			}
			if (space < 0 && isSpace(codePoint)) {
				space = cut;
			}
			cut -= Character.charCount(codePoint);
		}
		return (space > start) ? space : hardEnd;
	}

	/**
	 * Where the window after {@code [start, end)} starts: at least {@code overlap} bytes before
	 * {@code end}, moved back to the start of a word when one begins within {@code zone} bytes.
	 */
	private static int nextStart(String text, int start, int end, int overlap, int zone) {
		int next = end;
		long shared = 0;
		while (shared < overlap && next > start) {
			int codePoint = text.codePointBefore(next);
			shared += NormalizedUtf8.cost(codePoint);
			next -= Character.charCount(codePoint);
		}
		if (overlap == 0 || next == start || isSpace(text.codePointBefore(next))) {
			return next;
		}
		int candidate = next;
		long scanned = 0;
		while (candidate > start) {
			int codePoint = text.codePointBefore(candidate);
			candidate -= Character.charCount(codePoint);
			scanned += NormalizedUtf8.cost(codePoint);
			if (scanned > zone) {
				break;
			}
			if (candidate > start && isSpace(text.codePointBefore(candidate))) {
				return candidate;
			}
		}
		return next;
	}

	private static boolean isLineBreak(int codePoint) {
		return codePoint == '\n' || codePoint == '\r' || codePoint == 0x85 || codePoint == 0x2028
				|| codePoint == 0x2029;
	}

	private static boolean isSpace(int codePoint) {
		return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint);
	}

	/**
	 * One window: the characters {@code [start, end)} of the text.
	 *
	 * @param start the index of its first character
	 * @param end the index after its last character
	 */
	record Window(int start, int end) {

		String of(String text) {
			return text.substring(this.start, this.end);
		}

	}

	/**
	 * The windows of a text.
	 *
	 * @param windows the windows, in order
	 * @param complete whether they reach the end of the text; {@code false} when the text needs more than
	 * the most windows allowed, and these are the first of them
	 */
	record Plan(List<Window> windows, boolean complete) {

		Plan {
			windows = List.copyOf(windows);
		}

	}

}
