package dev.modelarmor.screening;

import java.text.Normalizer;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.modelarmor.internal.Utf8;

/**
 * The size of text in the unit that windows are cut in: UTF-8 bytes of its normalized form, an upper
 * bound of the tokens any subword tokenizer can make of it.
 *
 * <p>A code point counts as the larger of its own UTF-8 bytes and those of its full decomposition (NFKD,
 * and NFD, which is longer for a few characters). Summed over a text this is at least the UTF-8 size of
 * the text as it is, and of its NFC and NFKC forms, whatever the neighbours: decomposition is per code
 * point, and recomposition never adds bytes. Counting each code point's NFKC form instead would not be a
 * bound, because a neighbouring combining mark can keep a composed character from recomposing (an
 * {@code á} followed by U+0323 is 4 bytes as code points, 5 bytes after NFKC). The one exception, Hangul
 * syllables, counts as its 3 bytes: NFC and NFKC always recompose its jamo, and the subword tokenizers
 * that decompose without recomposing count characters, of which a syllable has at most 3.
 *
 * <p>ASCII is its own normal form and costs 1 byte without any lookup; other code points are normalized
 * once and remembered, in tables of 64 KiB per Unicode plane that are made on first use.
 */
final class NormalizedUtf8 {

	/** The most one code point costs: U+FDFA, 3 bytes as written, 33 after NFKC. */
	static final int MAX_CODE_POINT_COST = 33;

	private static final int PLANE_SIZE = 0x10000;

	private static final int PLANES = 17;

	/** Cost per code point, 0 while not computed yet, one table per Unicode plane. */
	private static final AtomicReferenceArray<byte[]> COSTS = new AtomicReferenceArray<>(PLANES);

	private NormalizedUtf8() {
	}

	/**
	 * The cost of one code point.
	 * @param codePoint a code point; a lone surrogate counts as the 3 bytes of its replacement character
	 * @return the cost in bytes, from 1 to {@link #MAX_CODE_POINT_COST}
	 */
	static int cost(int codePoint) {
		if (codePoint < 0x80) {
			return 1;
		}
		byte[] plane = plane(codePoint >>> 16);
		int index = codePoint & 0xFFFF;
		int cost = plane[index];
		if (cost == 0) {
			cost = measure(codePoint);
			// A racing thread writes the same value; a reader that misses it computes it again.
			plane[index] = (byte) cost;
		}
		return cost;
	}

	/**
	 * The cost of a text.
	 * @param text the text
	 * @return the sum of the costs of its code points
	 */
	static long cost(CharSequence text) {
		long total = 0;
		for (int i = 0; i < text.length();) {
			int codePoint = Character.codePointAt(text, i);
			total += cost(codePoint);
			i += Character.charCount(codePoint);
		}
		return total;
	}

	private static byte[] plane(int number) {
		byte[] plane = COSTS.get(number);
		if (plane == null) {
			COSTS.compareAndSet(number, null, new byte[PLANE_SIZE]);
			plane = COSTS.get(number);
		}
		return plane;
	}

	/**
	 * The cost of one code point, computed afresh: what {@link #cost(int)} remembers.
	 * @param codePoint a code point
	 * @return the cost in bytes
	 */
	static int measure(int codePoint) {
		if (codePoint < PLANE_SIZE && Character.isSurrogate((char) codePoint)) {
			return 3;
		}
		if (codePoint >= 0xAC00 && codePoint <= 0xD7A3) {
			return 3;
		}
		String text = Character.toString(codePoint);
		int bytes = utf8(text);
		if (Normalizer.isNormalized(text, Normalizer.Form.NFKD)) {
			return bytes;
		}
		return Math.max(bytes, Math.max(utf8(Normalizer.normalize(text, Normalizer.Form.NFKD)),
				utf8(Normalizer.normalize(text, Normalizer.Form.NFD))));
	}

	private static int utf8(String text) {
		return (int) Utf8.length(text);
	}

}
