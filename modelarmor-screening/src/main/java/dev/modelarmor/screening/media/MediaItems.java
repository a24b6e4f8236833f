package dev.modelarmor.screening.media;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

import dev.modelarmor.client.ByteDataType;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ImageFormat;
import dev.modelarmor.screening.media.MediaItem.Reason;
import dev.modelarmor.screening.media.MediaItem.Screenable;
import dev.modelarmor.screening.media.MediaItem.Unscreened;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.InputStreamResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.web.multipart.MultipartFile;

/**
 * The one place where media of a prompt becomes what Model Armor screens, for the Spring AI advisor and for
 * {@code @ModelArmorGuarded} methods alike: bytes with a declared media type, a Spring AI {@code Media}
 * (when Spring AI is on the class path), a {@link Resource} or a {@link MultipartFile}.
 *
 * <p>The bytes decide, never the declared type alone: bytes that are a JPEG, PNG or BMP image
 * ({@link ImageFormat#detect(byte[])}) are screened as an image whatever they claim to be; a document type
 * (PDF, Word, Excel, PowerPoint, CSV, TXT) is screened as that type when its bytes start as such a file does;
 * anything else (audio, video, other images, ZIP archives, other types) is
 * {@link Reason#UNSUPPORTED_TYPE unscreenable}. An archive is never made into a {@code ZIP} item, which the v1
 * API the client follows does not list; a {@code ZIP} {@link DataItem} that the application built is screened as
 * it is.
 * Media given by URL (a Spring AI {@code Media} whose data is a URL, a {@link UrlResource} that is not on the
 * local file system, a resource of a kind not known to be local) is never fetched. No more than
 * {@link DataItem#MAX_BYTES} plus one byte is ever read: larger media is {@link Reason#TOO_LARGE}.
 */
public final class MediaItems {

	/** The integrations' media types (Spring AI's {@code Media} with modelarmor-spring-ai), found once. */
	private static final List<MediaAdapter> ADAPTERS = ServiceLoader
		.load(MediaAdapter.class, MediaItems.class.getClassLoader())
		.stream()
		.map(ServiceLoader.Provider::get)
		.toList();

	/** A media type's essence as RFC 6838 allows it, short enough for a log line. */
	private static final Pattern MEDIA_TYPE = Pattern
		.compile("[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}");

	private static final String UNKNOWN = "unknown";

	private static final byte[] PDF = { '%', 'P', 'D', 'F', '-' };

	/** Office Open XML documents are ZIP archives. */
	private static final byte[] ZIP = { 'P', 'K', 3, 4 };

	private MediaItems() {
	}

	/**
	 * Whether a value of this type is media that {@link #of(Object)} reads.
	 * @param type a type, such as a method's parameter type or a prompt expression's value type
	 * @return whether it is a {@link DataItem}, a Spring AI {@code Media}, a {@link Resource} or a
	 * {@link MultipartFile}
	 */
	public static boolean isMedia(Class<?> type) {
		return DataItem.class.isAssignableFrom(type) || Resource.class.isAssignableFrom(type)
				|| MultipartFile.class.isAssignableFrom(type) || adapterFor(type) != null;
	}

	/**
	 * Reads a value as media.
	 * @param value a {@link DataItem} of bytes, a Spring AI {@code Media}, a {@link Resource} or a
	 * {@link MultipartFile}
	 * @return the media, or {@code null} when the value is none of those (a {@code DataItem} of text is no
	 * media either)
	 */
	public static @Nullable MediaItem of(@Nullable Object value) {
		if (value instanceof DataItem item) {
			DataItem.ByteItem bytes = item.byteItem();
			// Already typed by the application; the client refuses one over the limit, as it refuses text.
			return (bytes != null) ? new Screenable(bytes.byteDataType().name().toLowerCase(Locale.ROOT), item) : null;
		}
		if (value instanceof MultipartFile file) {
			return of(file);
		}
		if (value instanceof Resource resource) {
			return of(resource, null);
		}
		if (value == null) {
			return null;
		}
		MediaAdapter adapter = adapterFor(value.getClass());
		return (adapter != null) ? adapter.adapt(value) : null;
	}

	private static @Nullable MediaAdapter adapterFor(Class<?> type) {
		for (MediaAdapter adapter : ADAPTERS) {
			if (adapter.type().isAssignableFrom(type)) {
				return adapter;
			}
		}
		return null;
	}

	/**
	 * Reads the data of a Spring AI {@code Media}, which holds either the bytes or a URL as a string.
	 * @param mediaType the declared media type, or {@code null}
	 * @param data the media's data
	 * @return the media
	 */
	public static MediaItem ofData(@Nullable String mediaType, @Nullable Object data) {
		if (data instanceof byte[] bytes) {
			return of(mediaType, null, bytes);
		}
		return new Unscreened(essence(mediaType), (data instanceof CharSequence) ? Reason.BY_REFERENCE : Reason.UNREADABLE,
				0);
	}

	/**
	 * Reads bytes with their declared media type (and file name, if any).
	 * @param mediaType the declared media type, or {@code null}
	 * @param fileName the file's name, or {@code null}: its extension types a document whose media type is absent
	 * @param data the bytes
	 * @return the media
	 */
	public static MediaItem of(@Nullable String mediaType, @Nullable String fileName, byte[] data) {
		String declared = essence(mediaType);
		ImageFormat image = ImageFormat.detect(data);
		if (image != null) {
			return within(declared, ByteDataType.IMAGE, data);
		}
		ByteDataType document = documentType(declared, fileName);
		if (document == null) {
			return new Unscreened(declared, Reason.UNSUPPORTED_TYPE, data.length);
		}
		if (!startsAs(document, data)) {
			return new Unscreened(declared, Reason.TYPE_MISMATCH, data.length);
		}
		return within(declared, document, data);
	}

	/**
	 * Reads a resource, unless it is given by URL: only resources known to be local are read, and no further
	 * than the limit.
	 * @param resource the resource
	 * @param mediaType its media type, or {@code null} to type it by its bytes and file name
	 * @return the media
	 */
	public static MediaItem of(Resource resource, @Nullable String mediaType) {
		String declared = essence(mediaType);
		if (!isLocal(resource)) {
			return new Unscreened(declared, Reason.BY_REFERENCE, 0);
		}
		try (InputStream in = resource.getInputStream()) {
			return read(mediaType, resource.getFilename(), in);
		}
		catch (IOException | RuntimeException ex) {
			return new Unscreened(declared, Reason.UNREADABLE, 0);
		}
	}

	/**
	 * Reads an uploaded file, no further than the limit.
	 * @param file the upload
	 * @return the media
	 */
	public static MediaItem of(MultipartFile file) {
		if (file.getSize() > DataItem.MAX_BYTES) {
			return new Unscreened(essence(file.getContentType()), Reason.TOO_LARGE, file.getSize());
		}
		try (InputStream in = file.getInputStream()) {
			return read(file.getContentType(), file.getOriginalFilename(), in);
		}
		catch (IOException | RuntimeException ex) {
			return new Unscreened(essence(file.getContentType()), Reason.UNREADABLE, 0);
		}
	}

	private static MediaItem read(@Nullable String mediaType, @Nullable String fileName, InputStream in)
			throws IOException {
		byte[] data = in.readNBytes(DataItem.MAX_BYTES + 1);
		return of(mediaType, fileName, data);
	}

	private static MediaItem within(String declared, ByteDataType type, byte[] data) {
		if (data.length > DataItem.MAX_BYTES) {
			return new Unscreened(declared, Reason.TOO_LARGE, data.length);
		}
		return new Screenable(declared, DataItem.bytes(type, data));
	}

	private static @Nullable ByteDataType documentType(String declared, @Nullable String fileName) {
		if (!UNKNOWN.equals(declared) && !"application/octet-stream".equals(declared)) {
			try {
				return ByteDataType.fromMediaType(declared);
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
		}
		if (fileName != null) {
			try {
				return ByteDataType.fromFileName(fileName);
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
		}
		return null;
	}

	/** Whether the bytes start as a file of that type does; text and CSV have no signature. */
	private static boolean startsAs(ByteDataType type, byte[] data) {
		return switch (type) {
			case PDF -> startsWith(data, PDF);
			case WORD_DOCUMENT, EXCEL_DOCUMENT, POWERPOINT_DOCUMENT -> startsWith(data, ZIP);
			default -> true;
		};
	}

	private static boolean startsWith(byte[] data, byte[] prefix) {
		return data.length >= prefix.length && Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
	}

	/**
	 * Whether reading the resource stays on this machine: in memory, on the class path, or a file. A URL of
	 * any other protocol, or a resource of a kind not known here (which may fetch from anywhere), is not.
	 */
	private static boolean isLocal(Resource resource) {
		if (resource instanceof ByteArrayResource || resource instanceof ClassPathResource
				|| resource instanceof FileSystemResource
				|| resource instanceof InputStreamResource) {
			return true;
		}
		if (resource instanceof UrlResource) {
			try {
				return isLocal(resource.getURL());
			}
			catch (IOException ex) {
				return false;
			}
		}
		return false;
	}

	private static boolean isLocal(URL url) {
		String protocol = url.getProtocol().toLowerCase(Locale.ROOT);
		if ("file".equals(protocol)) {
			return url.getHost() == null || url.getHost().isEmpty() || "localhost".equalsIgnoreCase(url.getHost());
		}
		// jar:file:/app.jar!/image.png is local; jar:http://… is not.
		return "jar".equals(protocol) && url.getPath().toLowerCase(Locale.ROOT).startsWith("file:/");
	}

	/** The media type's essence, lower case, or {@code unknown}: what a log line may say of it. */
	static String essence(@Nullable String mediaType) {
		if (mediaType == null) {
			return UNKNOWN;
		}
		int semicolon = mediaType.indexOf(';');
		String essence = ((semicolon >= 0) ? mediaType.substring(0, semicolon) : mediaType).strip()
			.toLowerCase(Locale.ROOT);
		return MEDIA_TYPE.matcher(essence).matches() ? essence : UNKNOWN;
	}

}
