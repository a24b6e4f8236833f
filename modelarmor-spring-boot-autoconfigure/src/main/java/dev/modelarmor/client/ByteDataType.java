package dev.modelarmor.client;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * The format of the bytes in a {@link DataItem}.
 *
 * <p>Values carry the API's names. A value that this client does not know reads as
 * {@link #UNRECOGNIZED}.
 */
public enum ByteDataType {

	/**
	 * Not set.
	 */
	BYTE_ITEM_TYPE_UNSPECIFIED,

	/**
	 * UTF-8 plain text.
	 */
	PLAINTEXT_UTF8,

	/**
	 * A PDF document.
	 */
	PDF,

	/**
	 * A Word document (DOCX, DOCM, DOTX, DOTM).
	 */
	WORD_DOCUMENT,

	/**
	 * An Excel document.
	 */
	EXCEL_DOCUMENT,

	/**
	 * A PowerPoint document.
	 */
	POWERPOINT_DOCUMENT,

	/**
	 * A text file.
	 */
	TXT,

	/**
	 * A CSV file.
	 */
	CSV,

	/**
	 * An image. Added to the API in 2026; schemas published before (proto 0.29.0) do not know it.
	 */
	IMAGE,

	/**
	 * A value that this client does not know, sent by a newer API. It cannot be sent.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED

}
