package dev.modelarmor.internal;

/**
 * The UTF-8 length of text without encoding it: the one count of UTF-8 bytes that request limits, windows
 * and stream windows use. A lone surrogate counts as the 3 bytes of its replacement character. Internal to
 * the starter; public only so that the layers above the client count as it does.
 */
public final class Utf8 {

	private Utf8() {
	}

	/**
	 * The UTF-8 length of a text.
	 * @param text the text
	 * @return its length in UTF-8 bytes
	 */
	public static long length(CharSequence text) {
		long bytes = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else {
				bytes += 3;
			}
		}
		return bytes;
	}

	/**
	 * The UTF-8 length of one code point.
	 * @param codePoint the code point
	 * @return its length in UTF-8 bytes, from 1 to 4
	 */
	public static int length(int codePoint) {
		if (codePoint < 0x80) {
			return 1;
		}
		if (codePoint < 0x800) {
			return 2;
		}
		return (codePoint < 0x10000) ? 3 : 4;
	}

}
