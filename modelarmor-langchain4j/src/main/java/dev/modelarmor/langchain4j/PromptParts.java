package dev.modelarmor.langchain4j;

import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.pdf.PdfFile;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;
import org.jspecify.annotations.Nullable;

/**
 * The media of a LangChain4j user message as Model Armor sees it: images and PDFs given as data are read by
 * {@link MediaItems} (their type told by their bytes); media given by URL is never fetched, and audio, video
 * and other content cannot be screened.
 */
final class PromptParts {

	private PromptParts() {
	}

	static List<MediaItem> media(UserMessage message) {
		List<MediaItem> media = new ArrayList<>();
		for (Content content : message.contents()) {
			if (content instanceof TextContent) {
				continue;
			}
			if (content instanceof ImageContent image) {
				Image data = image.image();
				media.add(read(data.mimeType(), data.base64Data(), data.url()));
			}
			else if (content instanceof PdfFileContent pdf) {
				PdfFile data = pdf.pdfFile();
				media.add(read((data.mimeType() != null) ? data.mimeType() : "application/pdf", data.base64Data(),
						data.url()));
			}
			else {
				media.add(new MediaItem.Unscreened(content.type().name().toLowerCase(Locale.ROOT),
						MediaItem.Reason.UNSUPPORTED_TYPE, 0));
			}
		}
		return media;
	}

	private static MediaItem read(@Nullable String mediaType, @Nullable String base64, @Nullable URI url) {
		String type = (mediaType != null) ? mediaType : "unknown";
		if (base64 == null) {
			return new MediaItem.Unscreened(type, (url != null) ? MediaItem.Reason.BY_REFERENCE
					: MediaItem.Reason.UNREADABLE, 0);
		}
		// Refused before decoding: a hostile prompt must not make the guardrail allocate its media twice over.
		long size = (long) base64.length() * 3 / 4;
		if (size > DataItem.MAX_BYTES + 2L) {
			return new MediaItem.Unscreened(type, MediaItem.Reason.TOO_LARGE, size);
		}
		byte[] bytes;
		try {
			bytes = Base64.getMimeDecoder().decode(base64);
		}
		catch (IllegalArgumentException ex) {
			return new MediaItem.Unscreened(type, MediaItem.Reason.UNREADABLE, 0);
		}
		return MediaItems.of(mediaType, null, bytes);
	}

}
