package dev.modelarmor.screening.media;

import java.nio.charset.StandardCharsets;

import dev.modelarmor.client.ByteDataType;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.screening.media.MediaItem.Reason;
import dev.modelarmor.screening.media.MediaItem.Screenable;
import dev.modelarmor.screening.media.MediaItem.Unscreened;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.mock.web.MockMultipartFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a ZIP archive does to media screening. The media layer never makes a ZIP item of an archive it is
 * handed (the v1 reference this client follows does not list ZIP): an archive is unscreenable, so the
 * screening policy (fail closed by default) decides, and nothing inside it slips through unscreened as an
 * Office document would, whose bytes also start as a ZIP archive. A ZIP item an application built itself
 * is screened as it is.
 */
class ZipMediaTests {

	private static final byte[] ARCHIVE = { 'P', 'K', 3, 4, 20, 0, 0, 0, 'x', 'l', '/' };

	@Test
	void anArchiveDeclaredAsZipIsUnscreenable() {
		assertThat(MediaItems.of("application/zip", "bundle.zip", ARCHIVE))
			.isEqualTo(new Unscreened("application/zip", Reason.UNSUPPORTED_TYPE, ARCHIVE.length));
	}

	@Test
	void anArchiveKnownOnlyByItsFileNameIsUnscreenable() {
		assertThat(MediaItems.of(new MockMultipartFile("file", "bundle.zip", null, ARCHIVE)))
			.isEqualTo(new Unscreened("unknown", Reason.UNSUPPORTED_TYPE, ARCHIVE.length));
		assertThat(MediaItems.of(new ByteArrayResource(ARCHIVE), "application/x-zip-compressed"))
			.isEqualTo(new Unscreened("application/x-zip-compressed", Reason.UNSUPPORTED_TYPE, ARCHIVE.length));
	}

	@Test
	void anArchiveThatClaimsToBeAWordDocumentIsScreenedAsOneAndModelArmorJudgesIt() {
		// Office files are ZIP archives: the signature cannot tell them apart, Model Armor does.
		MediaItem item = MediaItems.of("application/vnd.openxmlformats-officedocument.wordprocessingml.document",
				null, ARCHIVE);

		assertThat(item).isInstanceOf(Screenable.class);
		assertThat(((Screenable) item).item().byteItem().byteDataType()).isEqualTo(ByteDataType.WORD_DOCUMENT);
	}

	@Test
	void aZipItemBuiltByTheApplicationIsScreenedAsItIsWithItsLabel() {
		DataItem zip = DataItem.bytes(ByteDataType.ZIP, ARCHIVE).withFileLabel("bundle.zip");

		assertThat(MediaItems.of(zip)).isEqualTo(new Screenable("zip", zip));
	}

	@Test
	void textClaimingToBeAZipIsNoMedia() {
		assertThat(MediaItems.of(DataItem.text(new String(ARCHIVE, StandardCharsets.ISO_8859_1)))).isNull();
	}

}
