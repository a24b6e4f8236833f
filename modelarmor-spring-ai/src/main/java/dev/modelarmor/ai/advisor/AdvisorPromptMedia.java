package dev.modelarmor.ai.advisor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ImageFormat;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Redacted;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * The media of a request's user messages, and the one decision for a prompt screened in parts: its text and
 * each of its media, all at once. Any refusal decides for the whole prompt as soon as it comes, and the
 * other screenings still running are cancelled; when every part passed, redacted images replace their media
 * in the request.
 */
final class AdvisorPromptMedia {

	private AdvisorPromptMedia() {
	}

	/**
	 * Every media of every user message of the request, read by {@link MediaItems} (never fetched when given
	 * by URL), in the order of the prompt's messages.
	 */
	static List<Part> of(ChatClientRequest request) {
		List<Part> parts = new ArrayList<>();
		List<Message> messages = request.prompt().getInstructions();
		for (int m = 0; m < messages.size(); m++) {
			if (messages.get(m) instanceof UserMessage user) {
				List<Media> media = user.getMedia();
				for (int i = 0; i < media.size(); i++) {
					Media one = media.get(i);
					parts.add(new Part(m, i, one, MediaItems.ofData(one.getMimeType().toString(), one.getData())));
				}
			}
		}
		return parts;
	}

	/**
	 * The request with each redacted image in place of the media it was made from.
	 * @param request the request
	 * @param parts the media of the request
	 * @param decisions the decision of each part, in the same order
	 * @return the request, rewritten when any image was redacted
	 */
	static ChatClientRequest withRedactions(ChatClientRequest request, List<Part> parts,
			List<ScreeningDecision> decisions) {
		Map<Integer, Map<Integer, Media>> redacted = new HashMap<>();
		for (int p = 0; p < parts.size(); p++) {
			if (decisions.get(p) instanceof Redacted redaction) {
				Part part = parts.get(p);
				redacted.computeIfAbsent(part.message(), (m) -> new HashMap<>())
					.put(part.index(), media(part.media(), redaction.image()));
			}
		}
		if (redacted.isEmpty()) {
			return request;
		}
		List<Message> messages = new ArrayList<>(request.prompt().getInstructions());
		redacted.forEach((m, replacements) -> {
			UserMessage user = (UserMessage) messages.get(m);
			List<Media> media = new ArrayList<>(user.getMedia());
			replacements.forEach(media::set);
			messages.set(m, user.mutate().media(media).build());
		});
		Prompt prompt = request.prompt().mutate().messages(messages).build();
		return request.mutate().prompt(prompt).build();
	}

	private static Media media(Media original, DataItem image) {
		byte[] bytes = Objects.requireNonNull(image.byteItem(), "a redacted image holds bytes").byteData();
		ImageFormat format = ImageFormat.detect(bytes);
		// The redacted image's format is its own: PNG for a JPEG that Model Armor redacted, say.
		MimeType type = (format != null) ? MimeType.valueOf(format.mediaType()) : original.getMimeType();
		Media.Builder builder = Media.builder().mimeType(type).data(bytes).name(original.getName());
		String id = original.getId();
		return (id != null) ? builder.id(id).build() : builder.build();
	}

	/**
	 * One media of the prompt: where it is (the message's index among the prompt's messages, and its own in
	 * the message's media) and what Model Armor can make of it.
	 */
	record Part(int message, int index, Media media, MediaItem item) {
	}

}
