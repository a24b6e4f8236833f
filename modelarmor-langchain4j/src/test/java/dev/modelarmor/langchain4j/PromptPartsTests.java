package dev.modelarmor.langchain4j;

import java.net.URI;
import java.util.Base64;
import java.util.List;

import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.screening.media.MediaItem;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the media of a user message reach Model Armor: hostile sizes and encodings refused before anything is
 * decoded or sent, URLs never fetched.
 */
class PromptPartsTests {

	@Test
	void mediaLargerThanModelArmorScreensIsRefusedBeforeItIsDecoded() {
		String huge = "A".repeat((DataItem.MAX_BYTES / 3 + 2) * 4);

		List<MediaItem> media = PromptParts.media(UserMessage.from(ImageContent.from(huge, "image/png")));

		assertThat(media).singleElement()
			.isInstanceOfSatisfying(MediaItem.Unscreened.class,
					(item) -> assertThat(item.reason()).isEqualTo(MediaItem.Reason.TOO_LARGE));
	}

	@Test
	void mediaJustWithinTheLimitIsRead() {
		byte[] data = new byte[DataItem.MAX_BYTES];
		data[0] = '%';
		data[1] = 'P';
		data[2] = 'D';
		data[3] = 'F';
		data[4] = '-';
		String base64 = Base64.getEncoder().encodeToString(data);

		List<MediaItem> media = PromptParts.media(UserMessage.from(PdfFileContent.from(base64, "application/pdf")));

		assertThat(media).singleElement().isInstanceOf(MediaItem.Screenable.class);
	}

	@Test
	void badBase64IsUnreadableAndAUrlIsNeverFetched() {
		List<MediaItem> media = PromptParts.media(UserMessage.from(TextContent.from("look"),
				ImageContent.from("!!not base64!!", "image/png"), ImageContent.from(URI.create("https://example.invalid/a.png")),
				AudioContent.from("AAAA", "audio/wav")));

		assertThat(media).extracting((item) -> ((MediaItem.Unscreened) item).reason())
			.containsExactly(MediaItem.Reason.UNREADABLE, MediaItem.Reason.BY_REFERENCE,
					MediaItem.Reason.UNSUPPORTED_TYPE);
	}

}
