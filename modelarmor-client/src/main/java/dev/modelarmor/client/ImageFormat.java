package dev.modelarmor.client;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * The image formats Model Armor screens, told apart by their first bytes (their magic numbers), never by a
 * declared media type or file name: a sender can declare anything.
 */
public enum ImageFormat {

	/** A JPEG image: {@code FF D8 FF}. */
	JPEG("image/jpeg"),

	/** A PNG image: the 8-byte PNG signature. */
	PNG("image/png"),

	/** A BMP image: {@code BM} followed by a file header and a DIB header of a known size. */
	BMP("image/bmp");

	private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	/** The BMP file header (14 bytes) and the size field of the DIB header that follows it. */
	private static final int BMP_MIN_LENGTH = 18;

	private final String mediaType;

	ImageFormat(String mediaType) {
		this.mediaType = mediaType;
	}

	/**
	 * The media type of this format.
	 * @return e.g. {@code image/png}
	 */
	public String mediaType() {
		return this.mediaType;
	}

	/**
	 * The format of an image, from its first bytes.
	 * @param data the image's bytes
	 * @return the format, or {@code null} when the bytes are no JPEG, PNG or BMP image
	 */
	public static @Nullable ImageFormat detect(byte[] data) {
		if (data.length >= 3 && data[0] == (byte) 0xff && data[1] == (byte) 0xd8 && data[2] == (byte) 0xff) {
			return JPEG;
		}
		if (startsWith(data, PNG_SIGNATURE)) {
			return PNG;
		}
		if (data.length >= BMP_MIN_LENGTH && data[0] == 'B' && data[1] == 'M' && isDibHeaderSize(littleEndianInt(data, 14))) {
			return BMP;
		}
		return null;
	}

	private static boolean startsWith(byte[] data, byte[] prefix) {
		return data.length >= prefix.length && Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
	}

	/** The sizes of the DIB headers that exist (OS/2 1.x, BITMAPINFOHEADER, V2, V3, OS/2 2.x, V4, V5). */
	private static boolean isDibHeaderSize(int size) {
		return size == 12 || size == 40 || size == 52 || size == 56 || size == 64 || size == 108 || size == 124;
	}

	private static int littleEndianInt(byte[] data, int offset) {
		return (data[offset] & 0xff) | (data[offset + 1] & 0xff) << 8 | (data[offset + 2] & 0xff) << 16
				| (data[offset + 3] & 0xff) << 24;
	}

}
