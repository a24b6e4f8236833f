package dev.modelarmor.client;

import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

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
	 * A ZIP archive, whose files Model Armor screens one by one. Google's reference lists it for v1beta;
	 * the v1 reference this client follows lists the types up to {@link #IMAGE}, so a v1 service that does
	 * not take it refuses the request with HTTP 400 ({@link ModelArmorApiException} with Google's message).
	 * Never derived from a file name or a media type: an archive becomes a ZIP item only when an application
	 * builds one ({@link DataItem#bytes(ByteDataType, byte[])}).
	 */
	ZIP,

	/**
	 * A value that this client does not know, sent by a newer API. It cannot be sent.
	 */
	@JsonEnumDefaultValue
	UNRECOGNIZED;

	private static final Map<String, ByteDataType> BY_EXTENSION = Map.ofEntries(Map.entry("pdf", PDF),
			Map.entry("docx", WORD_DOCUMENT), Map.entry("docm", WORD_DOCUMENT), Map.entry("dotx", WORD_DOCUMENT),
			Map.entry("dotm", WORD_DOCUMENT), Map.entry("xlsx", EXCEL_DOCUMENT), Map.entry("xlsm", EXCEL_DOCUMENT),
			Map.entry("xltx", EXCEL_DOCUMENT), Map.entry("xltm", EXCEL_DOCUMENT),
			Map.entry("pptx", POWERPOINT_DOCUMENT), Map.entry("pptm", POWERPOINT_DOCUMENT),
			Map.entry("potx", POWERPOINT_DOCUMENT), Map.entry("potm", POWERPOINT_DOCUMENT), Map.entry("txt", TXT),
			Map.entry("csv", CSV));

	private static final Map<String, ByteDataType> BY_MEDIA_TYPE = Map.ofEntries(
			Map.entry("application/pdf", PDF),
			Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", WORD_DOCUMENT),
			Map.entry("application/vnd.ms-word.document.macroenabled.12", WORD_DOCUMENT),
			Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.template", WORD_DOCUMENT),
			Map.entry("application/vnd.ms-word.template.macroenabled.12", WORD_DOCUMENT),
			Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", EXCEL_DOCUMENT),
			Map.entry("application/vnd.ms-excel.sheet.macroenabled.12", EXCEL_DOCUMENT),
			Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.template", EXCEL_DOCUMENT),
			Map.entry("application/vnd.ms-excel.template.macroenabled.12", EXCEL_DOCUMENT),
			Map.entry("application/vnd.openxmlformats-officedocument.presentationml.presentation",
					POWERPOINT_DOCUMENT),
			Map.entry("application/vnd.ms-powerpoint.presentation.macroenabled.12", POWERPOINT_DOCUMENT),
			Map.entry("application/vnd.openxmlformats-officedocument.presentationml.template", POWERPOINT_DOCUMENT),
			Map.entry("application/vnd.ms-powerpoint.template.macroenabled.12", POWERPOINT_DOCUMENT),
			Map.entry("text/plain", TXT), Map.entry("text/csv", CSV));

	/**
	 * The type of a document, from its file name's extension.
	 * @param fileName a file name or path, e.g. {@code reports/q3.pdf}
	 * @return the type
	 * @throws IllegalArgumentException when Model Armor does not screen that kind of file
	 */
	public static ByteDataType fromFileName(String fileName) {
		// Only the last path segment has the extension: a dot in a folder's name is none.
		String name = fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
		int dot = name.lastIndexOf('.');
		String extension = (dot >= 0) ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
		ByteDataType type = BY_EXTENSION.get(extension);
		if (type == null) {
			String what = extension.isEmpty() ? "files without an extension" : "'." + extension + "' files";
			throw new IllegalArgumentException(
					"Model Armor does not screen " + what + "; it screens " + new TreeSet<>(BY_EXTENSION.keySet()));
		}
		return type;
	}

	/**
	 * The type of a document, from its media type.
	 * @param mediaType a media type such as {@code application/pdf}; parameters such as {@code charset} are
	 * ignored
	 * @return the type
	 * @throws IllegalArgumentException when Model Armor does not screen that media type
	 */
	public static ByteDataType fromMediaType(String mediaType) {
		int semicolon = mediaType.indexOf(';');
		String essence = ((semicolon >= 0) ? mediaType.substring(0, semicolon) : mediaType).strip()
			.toLowerCase(Locale.ROOT);
		ByteDataType type = BY_MEDIA_TYPE.get(essence);
		if (type == null) {
			throw new IllegalArgumentException("Model Armor does not screen '" + essence + "' documents; it screens "
					+ new TreeSet<>(BY_MEDIA_TYPE.keySet()));
		}
		return type;
	}

}
