package dev.modelarmor.ai.mcp;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ResourceLink;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;


/**
 * Screens the parts of what an MCP server returns (text, images, audio, embedded resources, resource links,
 * structured content) through {@link ModelArmorScreening}, all parts of one result in parallel, and puts a
 * result back together from the decisions: de-identified text in place of the text it replaces. Text is
 * screened as text of any length (in windows); binary contents through the starter's media path, decoded no
 * further than Model Armor's limit; what Model Armor cannot screen (audio, other types) is decided by
 * {@code modelarmor.screening.unscreenable-media}. A result of more than {@link #MAX_PARTS} parts is refused
 * unscreened. Thread-safe.
 */
final class McpContentScreening {

	/** The most parts of one result that are screened; a result of more is refused. */
	static final int MAX_PARTS = 256;

	/** The longest base64 text that can hold no more than {@link DataItem#MAX_BYTES}. */
	private static final long MAX_BASE64_CHARS = 4L * ((DataItem.MAX_BYTES + 2L) / 3L) + 4L;

	private static final Pattern MEDIA_TYPE = Pattern
		.compile("[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final MatchAction onMatch;

	McpContentScreening(ModelArmorScreening screening, @Nullable String template, MatchAction onMatch) {
		this.screening = screening;
		this.template = template;
		this.onMatch = onMatch;
	}

	/**
	 * Screens text; blank text passes unscreened.
	 * @param phase which side ({@link Phase#PROMPT} for what a client sends, {@link Phase#RESPONSE} for what
	 * the server returns)
	 * @param caller names the tool, prompt or resource in log lines
	 * @param text the text
	 * @param replaceable whether de-identified text can take its place
	 * @param scope the request's tenant and attributes
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> text(Phase phase, String caller, String text, boolean replaceable,
			McpScope scope) {
		if (text.isBlank()) {
			return CompletableFuture.completedFuture(ScreeningDecision.PASS);
		}
		ScreeningRequest request = ScreeningRequest.of(phase, caller, text)
			.withTemplate(this.template)
			.withOnMatch(this.onMatch)
			.withReplaceable(replaceable && this.onMatch == MatchAction.DEIDENTIFY);
		return this.screening.screenAsync(request, scope.tenant(), scope.attributes());
	}

	/**
	 * Screens base64 bytes through the media path: never decoded beyond Model Armor's limit, typed by their
	 * bytes; what cannot be screened is decided by the screening's unscreenable-media policy.
	 * @param phase which side
	 * @param caller names the tool, prompt or resource in log lines
	 * @param mimeType the declared media type, or {@code null}
	 * @param base64 the bytes as base64, or {@code null}
	 * @param scope the request's tenant and attributes
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> media(Phase phase, String caller, @Nullable String mimeType,
			@Nullable String base64, McpScope scope) {
		MediaItem media = media(mimeType, base64);
		if (media instanceof MediaItem.Screenable screenable) {
			ScreeningRequest request = new ScreeningRequest(phase, null, screenable.item(), null, this.template,
					this.onMatch, false, caller);
			return this.screening.screenAsync(request, scope.tenant(), scope.attributes());
		}
		return CompletableFuture.completedFuture(
				this.screening.unscreened(caller, phase, this.template, (MediaItem.Unscreened) media));
	}

	private static MediaItem media(@Nullable String mimeType, @Nullable String base64) {
		String declared = (mimeType != null && MEDIA_TYPE.matcher(mimeType.toLowerCase(Locale.ROOT)).matches())
				? mimeType.toLowerCase(Locale.ROOT) : "unknown";
		if (base64 == null) {
			return new MediaItem.Unscreened(declared, MediaItem.Reason.UNREADABLE, 0);
		}
		if (base64.length() > MAX_BASE64_CHARS) {
			return new MediaItem.Unscreened(declared, MediaItem.Reason.TOO_LARGE, (base64.length() / 4L) * 3L);
		}
		byte[] bytes;
		try {
			bytes = Base64.getMimeDecoder().decode(base64);
		}
		catch (IllegalArgumentException ex) {
			return new MediaItem.Unscreened(declared, MediaItem.Reason.UNREADABLE, 0);
		}
		return MediaItems.of(mimeType, null, bytes);
	}

	/**
	 * Screens JSON that another program parses (tool arguments, structured content): a match that
	 * de-identification could rewrite blocks.
	 * @param phase which side
	 * @param caller names the tool in log lines
	 * @param value the value, written as JSON
	 * @param scope the request's tenant and attributes
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> json(Phase phase, String caller, Object value, McpScope scope) {
		return text(phase, caller, toJson(value), false, scope);
	}

	/**
	 * Screens one content part of a tool result or a prompt message.
	 * @param phase which side
	 * @param caller names the tool or prompt in log lines
	 * @param content the part
	 * @param scope the request's tenant and attributes
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> content(Phase phase, String caller, @Nullable Content content,
			McpScope scope) {
		if (content instanceof TextContent text) {
			return text(phase, caller, Objects.requireNonNullElse(text.text(), ""), true, scope);
		}
		if (content instanceof ImageContent image) {
			return media(phase, caller, image.mimeType(), image.data(), scope);
		}
		if (content instanceof AudioContent audio) {
			return media(phase, caller, audio.mimeType(), audio.data(), scope);
		}
		if (content instanceof EmbeddedResource embedded) {
			return resource(phase, caller, embedded.resource(), scope);
		}
		if (content instanceof ResourceLink link) {
			String words = String.join("\n", nonNull(link.name()), nonNull(link.title()), nonNull(link.description()),
					nonNull(link.uri()));
			return text(phase, caller, words, false, scope);
		}
		if (content == null) {
			return CompletableFuture.completedFuture(ScreeningDecision.PASS);
		}
		// a kind of content this version does not know: what it says is screened, as JSON, and never rewritten
		return json(phase, caller, content, scope);
	}

	/**
	 * Screens the contents of a resource.
	 * @param phase which side
	 * @param caller names the resource in log lines
	 * @param contents the contents
	 * @param scope the request's tenant and attributes
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> resource(Phase phase, String caller, @Nullable ResourceContents contents,
			McpScope scope) {
		if (contents instanceof TextResourceContents text) {
			return text(phase, caller, Objects.requireNonNullElse(text.text(), ""), true, scope);
		}
		if (contents instanceof BlobResourceContents blob) {
			return media(phase, caller, blob.mimeType(), blob.blob(), scope);
		}
		if (contents == null) {
			return CompletableFuture.completedFuture(ScreeningDecision.PASS);
		}
		return json(phase, caller, contents, scope);
	}

	/**
	 * One decision for many parts: the first refusal as soon as it comes, or every decision in order.
	 * @param decisions the parts' screenings
	 * @return the decisions, or the refusal alone
	 */
	static CompletableFuture<List<ScreeningDecision>> all(List<CompletableFuture<ScreeningDecision>> decisions) {
		return ScreeningDecision.firstRefusalOrAll(decisions);
	}

	/**
	 * The refusal among decisions that {@link #all(List)} returned.
	 * @param decisions the decisions
	 * @return the refusal, or {@code null} when every part may go on
	 */
	static @Nullable Refusal refusal(List<ScreeningDecision> decisions) {
		return (!decisions.isEmpty() && decisions.get(0) instanceof Refusal refusal) ? refusal : null;
	}

	/**
	 * A content part with its de-identified text, when its decision gave one.
	 * @param content the part
	 * @param decision its decision
	 * @return the part to send
	 */
	static Content replaced(Content content, ScreeningDecision decision) {
		if (!(decision instanceof Deidentified deidentified)) {
			return content;
		}
		if (content instanceof TextContent text) {
			return new TextContent(text.annotations(), deidentified.text(), text.meta());
		}
		if (content instanceof EmbeddedResource embedded && embedded.resource() instanceof TextResourceContents text) {
			return new EmbeddedResource(embedded.annotations(), replaced(text, decision), embedded.meta());
		}
		return content;
	}

	/**
	 * Resource contents with their de-identified text, when the decision gave one.
	 * @param contents the contents
	 * @param decision its decision
	 * @return the contents to send
	 */
	static ResourceContents replaced(ResourceContents contents, ScreeningDecision decision) {
		if (decision instanceof Deidentified deidentified && contents instanceof TextResourceContents text) {
			return new TextResourceContents(text.uri(), text.mimeType(), deidentified.text(), text.meta());
		}
		return contents;
	}

	/**
	 * Whether any decision replaced text.
	 * @param decisions the decisions
	 * @return whether one is {@link Deidentified}
	 */
	static boolean deidentified(List<ScreeningDecision> decisions) {
		return decisions.stream().anyMatch(Deidentified.class::isInstance);
	}

	/**
	 * The parts of a result, or {@code null} when there are more than {@link #MAX_PARTS}.
	 * @param parts the parts as sent
	 * @param <T> their type
	 * @return a copy, empty for none
	 */
	static <T> @Nullable List<@Nullable T> bounded(@Nullable List<T> parts) {
		if (parts == null) {
			return new ArrayList<>();
		}
		return (parts.size() > MAX_PARTS) ? null : new ArrayList<>(parts);
	}

	/**
	 * Waits for a screening, which the client's retry deadline bounds, and throws what it failed with as it was
	 * thrown.
	 * @param future the screening
	 * @param <T> its value
	 * @return its value
	 */
	static <T> T await(CompletableFuture<T> future) {
		try {
			return future.join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * A value as JSON.
	 * @param value arguments, structured content, an input schema
	 * @return its JSON
	 */
	static String toJson(Object value) {
		return JSON.writeValueAsString(value);
	}

	private static String nonNull(@Nullable String value) {
		return (value != null) ? value : "";
	}

}
