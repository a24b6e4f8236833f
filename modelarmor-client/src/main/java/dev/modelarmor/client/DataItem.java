package dev.modelarmor.client;

import dev.modelarmor.internal.Utf8;

import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Content to screen, or content that the service sends back: either text or a file's bytes.
 *
 * <p>{@link #toString()} never shows the content, only its kind and size.
 *
 * @param text the text, or {@code null} for a byte item
 * @param byteItem the bytes and their format, or {@code null} for text
 */
public record DataItem(@Nullable String text, @Nullable ByteItem byteItem) {

	/** The most Model Armor screens in one request: 4 MiB of text (UTF-8) or document bytes. */
	public static final int MAX_BYTES = 4 * 1024 * 1024;

	/**
	 * Creates an item. At most one of text and bytes may be set; neither is set only in an item
	 * of a newer kind, read from the service, that this client does not know.
	 * @param text the text, or {@code null}
	 * @param byteItem the bytes, or {@code null}
	 */
	public DataItem {
		if (text != null && byteItem != null) {
			throw new IllegalArgumentException("A DataItem holds either text or bytes, not both");
		}
	}

	/**
	 * Creates a text item.
	 * @param text the text
	 * @return the item
	 */
	public static DataItem text(String text) {
		Objects.requireNonNull(text, "text must not be null");
		return new DataItem(text, null);
	}

	/**
	 * The size of the content as sent: UTF-8 bytes of the text, or the document's bytes.
	 * @return the size in bytes
	 */
	public long sizeInBytes() {
		if (this.byteItem != null) {
			return this.byteItem.size();
		}
		return (this.text != null) ? Utf8.length(this.text) : 0;
	}

	/**
	 * Rejects content that Model Armor would not screen whole, before anything is sent.
	 * @param what what the content is, for the message, e.g. {@code prompt}
	 * @throws ModelArmorInputTooLargeException when the content is larger than {@link #MAX_BYTES}
	 */
	void requireWithinLimit(String what) {
		long size = sizeInBytes();
		if (size > MAX_BYTES) {
			throw new ModelArmorInputTooLargeException(what, size, MAX_BYTES);
		}
	}

	/**
	 * A document whose type follows from its file name ({@code report.pdf}, {@code sheet.xlsx}, …).
	 * @param fileName the file name or path
	 * @param content the document's bytes, copied
	 * @return the item
	 * @throws IllegalArgumentException when the extension is not a type Model Armor screens
	 */
	public static DataItem document(String fileName, byte[] content) {
		return bytes(ByteDataType.fromFileName(fileName), content);
	}

	/**
	 * An image (JPEG, PNG or BMP, told by its first bytes). The array is copied. One larger than
	 * {@link #MAX_BYTES} is refused when it is sent ({@link ModelArmorInputTooLargeException}), as text is.
	 * @param image the image's bytes
	 * @return an {@link ByteDataType#IMAGE} item
	 * @throws IllegalArgumentException when the bytes are no JPEG, PNG or BMP image
	 */
	public static DataItem image(byte[] image) {
		return bytes(ByteDataType.IMAGE, image);
	}

	/**
	 * Creates a byte item. The array is copied.
	 * @param type the format of the bytes
	 * @param data the bytes
	 * @return the item
	 * @throws IllegalArgumentException for {@link ByteDataType#UNRECOGNIZED}, which the service
	 * would not accept, for {@link ByteDataType#IMAGE} when the bytes are no JPEG, PNG or BMP image
	 * (the only images Model Armor screens), and for {@link ByteDataType#ZIP} when the bytes are no ZIP
	 * archive
	 */
	public static DataItem bytes(ByteDataType type, byte[] data) {
		Objects.requireNonNull(type, "type must not be null");
		Objects.requireNonNull(data, "data must not be null");
		if (type == ByteDataType.UNRECOGNIZED) {
			throw new IllegalArgumentException("ByteDataType.UNRECOGNIZED cannot be sent");
		}
		if (type == ByteDataType.IMAGE && ImageFormat.detect(data) == null) {
			throw new IllegalArgumentException(
					"The bytes of an IMAGE item are no JPEG, PNG or BMP image; Model Armor screens only those");
		}
		if (type == ByteDataType.ZIP && !isZipArchive(data)) {
			throw new IllegalArgumentException("The bytes of a ZIP item are no ZIP archive");
		}
		return new DataItem(null, new ByteItem(type, data));
	}

	/** A local file header, or the end record of an empty archive. */
	private static boolean isZipArchive(byte[] data) {
		return data.length >= 4 && data[0] == 'P' && data[1] == 'K'
				&& ((data[2] == 3 && data[3] == 4) || (data[2] == 5 && data[3] == 6));
	}

	/**
	 * This byte item with a file label: Google's {@code fileLabel}, which names the file in the answer. The
	 * label goes to Model Armor; it never appears in {@link #toString()}.
	 * @param fileLabel the label, e.g. the file's name
	 * @return the item
	 * @throws IllegalArgumentException when this item is text
	 */
	public DataItem withFileLabel(String fileLabel) {
		Objects.requireNonNull(fileLabel, "fileLabel must not be null");
		ByteItem bytes = this.byteItem;
		if (bytes == null) {
			throw new IllegalArgumentException("Only a byte item has a file label");
		}
		return new DataItem(null, new ByteItem(bytes.byteDataType, bytes.byteData, fileLabel));
	}

	@Override
	public String toString() {
		if (this.text != null) {
			return "DataItem[text, " + this.text.length() + " chars]";
		}
		if (this.byteItem != null) {
			return "DataItem[" + this.byteItem.byteDataType() + ", " + this.byteItem.size() + " bytes]";
		}
		return "DataItem[empty]";
	}

	/**
	 * A file's bytes and their format.
	 *
	 * <p>The bytes are copied on the way in and out; {@code equals} and {@code hashCode} compare
	 * them by content, and {@link #toString()} shows only the format and the size.
	 *
	 * @param byteDataType the format of the bytes; {@code BYTE_ITEM_TYPE_UNSPECIFIED} when absent
	 * @param byteData the bytes, base64 on the wire; empty when absent
	 * @param fileLabel Google's {@code fileLabel}, which names the file in the answer, or {@code null} when
	 * absent
	 */
	public record ByteItem(ByteDataType byteDataType, byte[] byteData, @Nullable String fileLabel) {

		/**
		 * Creates a byte item, copying the bytes.
		 * @param byteDataType the format of the bytes
		 * @param byteData the bytes
		 * @param fileLabel the file label, or {@code null}
		 */
		public ByteItem {
			// Jackson passes null for an absent field.
			byteDataType = Objects.requireNonNullElse(byteDataType, ByteDataType.BYTE_ITEM_TYPE_UNSPECIFIED);
			byteData = (byteData != null) ? byteData.clone() : new byte[0];
		}

		/**
		 * Creates a byte item without a file label, copying the bytes.
		 * @param byteDataType the format of the bytes
		 * @param byteData the bytes
		 */
		public ByteItem(ByteDataType byteDataType, byte[] byteData) {
			this(byteDataType, byteData, null);
		}

		/**
		 * A copy of the bytes.
		 * @return the bytes
		 */
		@Override
		public byte[] byteData() {
			return this.byteData.clone();
		}

		/**
		 * The number of bytes.
		 * @return the size
		 */
		public int size() {
			return this.byteData.length;
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return (this == other) || (other instanceof ByteItem that && this.byteDataType == that.byteDataType
					&& Arrays.equals(this.byteData, that.byteData) && Objects.equals(this.fileLabel, that.fileLabel));
		}

		@Override
		public int hashCode() {
			return 31 * (31 * this.byteDataType.hashCode() + Arrays.hashCode(this.byteData))
					+ Objects.hashCode(this.fileLabel);
		}

		@Override
		public String toString() {
			return "ByteItem[" + this.byteDataType + ", " + this.byteData.length + " bytes]";
		}

	}

}
