package dev.modelarmor.client;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import javax.imageio.ImageIO;

/**
 * Real images for tests, written by the JDK's own encoders, so that their first bytes are what an
 * application's uploads carry.
 */
public final class TestImages {

	private TestImages() {
	}

	/**
	 * A small PNG image.
	 * @return its bytes
	 */
	public static byte[] png() {
		return encode("png", Color.RED);
	}

	/**
	 * Another small PNG image, of other bytes.
	 * @return its bytes
	 */
	public static byte[] otherPng() {
		return encode("png", Color.BLUE);
	}

	/**
	 * A small JPEG image.
	 * @return its bytes
	 */
	public static byte[] jpeg() {
		return encode("jpg", Color.GREEN);
	}

	/**
	 * A small BMP image.
	 * @return its bytes
	 */
	public static byte[] bmp() {
		return encode("bmp", Color.YELLOW);
	}

	/**
	 * A small GIF image: an image format Model Armor does not screen.
	 * @return its bytes
	 */
	public static byte[] gif() {
		return encode("gif", Color.BLACK);
	}

	/**
	 * A PNG image of more than {@link DataItem#MAX_BYTES}: a valid signature, then padding.
	 * @return its bytes
	 */
	public static byte[] oversizedPng() {
		byte[] png = png();
		byte[] big = new byte[DataItem.MAX_BYTES + 1];
		System.arraycopy(png, 0, big, 0, png.length);
		return big;
	}

	private static byte[] encode(String format, Color color) {
		BufferedImage image = new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB);
		image.setRGB(1, 1, color.getRGB());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			if (!ImageIO.write(image, format, out)) {
				throw new IllegalStateException("no " + format + " writer");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

}
