package dev.modelarmor.screening;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.retry.InvalidSettingException;

/**
 * How {@link LongTextScreening} cuts text that is longer than Model Armor's filters read, and how many
 * of its windows it screens at once.
 *
 * <p>Sizes are UTF-8 bytes of the text's normalized form (NFKC, counted per code point on its full
 * decomposition so that the count never falls short). Every token of a subword tokenizer covers at least
 * one byte, so a window of at most {@code size} bytes is at most {@code size} tokens in any language and
 * whatever characters it is made of.
 *
 * @param size the most bytes in one window: at least {@value #MIN_SIZE}, at most {@link DataItem#MAX_BYTES}
 * (what Model Armor takes in one request)
 * @param overlap the bytes that consecutive windows share at least, so that anything shorter (a sentence,
 * a card number, a URL) lies whole in one window: from 0 to half of {@code size}
 * @param parallelism the most windows of one text screened at the same time: from 1 to
 * {@value #MAX_PARALLELISM}
 * @param maxWindows the most windows one text is cut into; longer text is refused with a
 * {@link ModelArmorInputTooLargeException} before anything is sent: at least 1
 */
public record WindowSettings(int size, int overlap, int parallelism, int maxWindows) {

	/** The smallest window: room for several of the longest code point and for progress past the overlap. */
	public static final int MIN_SIZE = 1024;

	/** The most windows of one text in flight at once. */
	public static final int MAX_PARALLELISM = 32;

	/**
	 * 8 KiB windows (8,192 tokens at most, under the 10,000 that the prompt-injection, responsible-AI and
	 * CSAM filters read, with room for the tokens a model adds), 1 KiB overlap, 4 windows in flight, at
	 * most 64 windows (about 450 KB of English).
	 */
	public static final WindowSettings DEFAULTS = new WindowSettings(8192, 1024, 4, 64);

	/**
	 * Creates the settings.
	 * @throws InvalidSettingException naming the setting that is out of range
	 */
	public WindowSettings {
		if (size < MIN_SIZE || size > DataItem.MAX_BYTES) {
			throw new InvalidSettingException("size", size,
					"must be from " + MIN_SIZE + " bytes (1KB) to " + DataItem.MAX_BYTES
							+ " bytes (4MB, the most Model Armor takes in one request)");
		}
		if (overlap < 0 || overlap > size / 2) {
			throw new InvalidSettingException("overlap", overlap, "must be from 0 to half of size ("
					+ size / 2 + " bytes), so that every window moves on by at least half a window");
		}
		if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
			throw new InvalidSettingException("parallelism", parallelism,
					"must be from 1 to " + MAX_PARALLELISM);
		}
		if (maxWindows < 1) {
			throw new InvalidSettingException("max-windows", maxWindows, "must be at least 1");
		}
	}

}
