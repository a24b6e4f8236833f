package dev.modelarmor.ai.internal;

import dev.modelarmor.screening.media.MediaAdapter;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;

import org.springframework.ai.content.Media;

/**
 * Spring AI's {@link Media} as a guarded method's prompt: screened from its bytes, never fetched when it is a
 * URL. Registered with {@link java.util.ServiceLoader}; applications do not use it directly.
 */
public final class SpringAiMediaAdapter implements MediaAdapter {

	@Override
	public Class<?> type() {
		return Media.class;
	}

	@Override
	public MediaItem adapt(Object value) {
		Media media = (Media) value;
		return MediaItems.ofData(media.getMimeType().toString(), media.getData());
	}

}
