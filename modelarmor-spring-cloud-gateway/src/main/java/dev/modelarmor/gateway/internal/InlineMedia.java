package dev.modelarmor.gateway.internal;

import java.util.Base64;
import java.util.Locale;

import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;
import org.jspecify.annotations.Nullable;

/**
 * Media of a request as the starter's media screening reads it: base64 data decoded (the bytes decide
 * its type), a URL or a file id never fetched, anything unreadable unscreenable. The request's size limit
 * bounds what is decoded.
 */
final class InlineMedia {

	private InlineMedia() {
	}

	/**
	 * Media given as base64 data.
	 * @param mediaType its declared type, or {@code null}
	 * @param base64 the data
	 * @return the media
	 */
	static MediaItem base64(@Nullable String mediaType, @Nullable String base64) {
		if (base64 == null) {
			return unreadable(mediaType);
		}
		try {
			return MediaItems.of(mediaType, null, Base64.getMimeDecoder().decode(base64));
		}
		catch (IllegalArgumentException ex) {
			return unreadable(mediaType);
		}
	}

	/**
	 * Media given as a URL: a {@code data:} URL is decoded, any other is never fetched.
	 * @param url the URL
	 * @return the media
	 */
	static MediaItem url(@Nullable String url) {
		if (url != null && url.regionMatches(true, 0, "data:", 0, 5)) {
			int comma = url.indexOf(',');
			String header = (comma < 0) ? "" : url.substring(5, comma);
			if (comma > 0 && header.toLowerCase(Locale.ROOT).endsWith(";base64")) {
				String mediaType = header.substring(0, header.length() - ";base64".length());
				return base64(mediaType.isEmpty() ? null : mediaType, url.substring(comma + 1));
			}
			return unreadable(null);
		}
		return MediaItems.ofData(null, (url != null) ? url : "");
	}

	/**
	 * Media given by reference (an uploaded file's id, a file URI).
	 * @param mediaType its declared type, or {@code null}
	 * @return the media, unscreenable
	 */
	static MediaItem reference(@Nullable String mediaType) {
		return MediaItems.ofData(mediaType, "reference");
	}

	/**
	 * A part of a type the filter does not know: it is not screened, so it is not let through either
	 * (unless unscreenable media is allowed).
	 * @param type the part's type, for log lines
	 * @return the media, unscreenable
	 */
	static MediaItem unknown(@Nullable String type) {
		return new MediaItem.Unscreened("unknown", MediaItem.Reason.UNSUPPORTED_TYPE, 0);
	}

	private static MediaItem unreadable(@Nullable String mediaType) {
		return MediaItems.ofData(mediaType, null);
	}

}
