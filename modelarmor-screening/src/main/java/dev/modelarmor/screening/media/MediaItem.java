package dev.modelarmor.screening.media;

import dev.modelarmor.client.DataItem;

/**
 * A piece of media from a prompt (an image, a document, an audio clip, a file given by URL), as
 * {@link MediaItems} reads it: an item Model Armor can screen, or media it cannot, and why.
 */
public sealed interface MediaItem permits MediaItem.Screenable, MediaItem.Unscreened {

	/**
	 * The media's type as declared, for log lines: its essence, such as {@code image/png}, or
	 * {@code unknown} when it was absent or not a well-formed media type.
	 * @return the media type
	 */
	String mediaType();

	/**
	 * Media that Model Armor screens: an image (JPEG, PNG or BMP, told by its bytes) or a document.
	 *
	 * @param mediaType the declared media type, for log lines
	 * @param item the item to screen, of at most {@link DataItem#MAX_BYTES}
	 */
	record Screenable(String mediaType, DataItem item) implements MediaItem {
	}

	/**
	 * Media that Model Armor cannot screen.
	 *
	 * @param mediaType the declared media type, for log lines
	 * @param reason why it cannot be screened
	 * @param size the bytes read of it: at most {@link DataItem#MAX_BYTES} plus one (reading stops there), 0
	 * when it was not read
	 */
	record Unscreened(String mediaType, Reason reason, long size) implements MediaItem {
	}

	/**
	 * Why media cannot be screened.
	 */
	enum Reason {

		/** Larger than Model Armor screens in one request: blocked in every mode, as text is. */
		TOO_LARGE("larger than the " + DataItem.MAX_BYTES + " bytes Model Armor screens"),

		/** Audio, video, an image other than JPEG, PNG or BMP, or another type Model Armor does not screen. */
		UNSUPPORTED_TYPE("not a type Model Armor screens"),

		/** Its bytes are not what its type declares (a PDF that does not start as one, say). */
		TYPE_MISMATCH("its bytes are not of its declared type"),

		/** Given by URL, which the starter never fetches. */
		BY_REFERENCE("given by URL, which is never fetched"),

		/** It could not be read. */
		UNREADABLE("it could not be read");

		private final String description;

		Reason(String description) {
			this.description = description;
		}

		/**
		 * Why, in words, without any of the content.
		 * @return the description
		 */
		public String description() {
			return this.description;
		}

		/**
		 * The reason in log lines and metric tags.
		 * @return e.g. {@code by_reference}
		 */
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

}
