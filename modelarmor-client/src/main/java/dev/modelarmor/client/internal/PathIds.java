package dev.modelarmor.client.internal;

import org.jspecify.annotations.Nullable;

/**
 * Checks an id that goes into one segment of a request's path (a project, a location, a template, a
 * floor-setting parent) before any request is made. {@link ApiCall} percent-encodes every such id as one
 * segment, so a {@code /}, {@code ?}, {@code #}, {@code :} or {@code %} in it cannot change the path or
 * add a query; what encoding cannot neutralize is a whole segment of {@code .} or {@code ..}, which a
 * server or a proxy on the way resolves to the current or the parent path. Those are refused, as are
 * their percent-encoded forms (once or several times over), which a server may decode before resolving.
 */
public final class PathIds {

	/** More rounds of decoding than any server does; an id that decodes further is refused. */
	private static final int DECODING_ROUNDS = 8;

	private PathIds() {
	}

	/**
	 * Returns the id when it can go into a path segment.
	 * @param argument the name of the argument, for the message, e.g. {@code templateId}
	 * @param id the id
	 * @return the id, unchanged
	 * @throws IllegalArgumentException naming the argument, when the id is empty or blank, or is
	 * {@code .} or {@code ..}, as it is or percent-encoded
	 */
	public static String require(String argument, @Nullable String id) {
		if (id == null || id.isBlank()) {
			throw new IllegalArgumentException(argument + " must not be empty");
		}
		String decoded = id;
		for (int round = 0;; round++) {
			if (decoded.equals(".") || decoded.equals("..")) {
				throw new IllegalArgumentException(argument + " must not be '" + decoded + "'"
						+ ((round == 0) ? "" : " (given percent-encoded as '" + id + "')")
						+ ": it would name another path than the one meant");
			}
			String next = decodeDotsAndPercents(decoded);
			if (next.equals(decoded)) {
				return id;
			}
			if (round == DECODING_ROUNDS) {
				throw new IllegalArgumentException(argument + " must not be percent-encoded over and over");
			}
			decoded = next;
		}
	}

	/** One round of percent-decoding of the only escapes that can end in a dot: {@code %2E} and {@code %25}. */
	private static String decodeDotsAndPercents(String text) {
		StringBuilder decoded = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			if (text.regionMatches(true, i, "%2E", 0, 3)) {
				decoded.append('.');
				i += 2;
			}
			else if (text.startsWith("%25", i)) {
				decoded.append('%');
				i += 2;
			}
			else {
				decoded.append(text.charAt(i));
			}
		}
		return decoded.toString();
	}

}
