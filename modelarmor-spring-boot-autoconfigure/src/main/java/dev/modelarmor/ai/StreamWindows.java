package dev.modelarmor.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.modelarmor.client.Utf8;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.model.Generation;

/**
 * The windowed screening of one streamed answer ({@link ModelArmorAdvisorOptions.StreamMode#WINDOWED}):
 * which of the model's chunks may be emitted, once the text that holds them has been screened.
 *
 * <p>Each generation's text is screened on its own, in windows. A window is everything received and not
 * yet emitted; it is screened once at least {@code window} UTF-8 bytes are waiting and at least
 * {@code window - overlap} of them arrived since the previous window, and at the end of the stream for
 * what is left (so an answer shorter than a window is screened once, at the end). After a window passes,
 * the chunks that end at least {@code overlap} bytes before its end are emitted, as the model sent them;
 * the rest is held back and is the head of the next window. A match shorter than the overlap therefore
 * lies whole in a window before any of it is emitted, whichever chunks or windows it spans, and every
 * emitted chunk's text was screened, the overlap emitted once.
 *
 * <p>A de-identified window is emitted as its de-identified text: in the first emitted chunk of the
 * generation, the others emitting none of its text. Only a part that the de-identified text leaves
 * unchanged is held back: when the change reaches into the held part, the emitted part ends before the
 * change (its text is then the model's, which the de-identified text leaves as it was), and the held part
 * is screened again with the next window or at the end.
 *
 * <p>The other parts of a chunk travel with it and are emitted only with it, after the text before them
 * was screened. Tool calls are model output the caller may act on: the names and arguments of a chunk's
 * tool calls are screened (one call per chunk that has any) before the chunk is emitted.
 *
 * <p>Not thread-safe: one stream gives it its chunks one at a time.
 */
final class StreamWindows {

	private final int window;

	private final int overlap;

	private final Function<String, ScreeningDecision> screenText;

	private final Function<String, ScreeningDecision> screenToolCalls;

	/** The chunks received and not emitted, oldest first. */
	private final List<Held> held = new ArrayList<>();

	/** Per generation: the text of the held chunks. */
	private final List<StringBuilder> pending = new ArrayList<>();

	/** Per generation: the UTF-8 bytes of {@link #pending}. */
	private final List<Long> pendingBytes = new ArrayList<>();

	/** Per generation: the UTF-8 bytes received since its last window. */
	private final List<Long> newBytes = new ArrayList<>();

	/** Per generation: whether its held text must be screened again (its last window was de-identified). */
	private final List<Boolean> dirty = new ArrayList<>();

	private int screenings;

	/**
	 * Creates the screening of one stream.
	 * @param window the UTF-8 bytes that wait for a screening
	 * @param overlap the UTF-8 bytes of a window held back for the next one, at most half of {@code window}
	 * @param screenText screens one window of one generation's text
	 * @param screenToolCalls screens the names and arguments of one chunk's tool calls
	 */
	StreamWindows(int window, int overlap, Function<String, ScreeningDecision> screenText,
			Function<String, ScreeningDecision> screenToolCalls) {
		if (overlap < 0 || overlap > window / 2) {
			throw new IllegalArgumentException("overlap must be from 0 to half of window");
		}
		this.window = window;
		this.overlap = overlap;
		this.screenText = screenText;
		this.screenToolCalls = screenToolCalls;
	}

	/**
	 * A chunk arrived.
	 * @param chunk the chunk
	 * @return the chunks that may be emitted now, and the refusal that ends the stream, if any
	 */
	Step accept(ChatClientResponse chunk) {
		List<Generation> generations = ChatResponses.generations(chunk);
		int[] lengths = new int[generations.size()];
		boolean due = false;
		for (int g = 0; g < generations.size(); g++) {
			String text = ChatResponses.text(generations.get(g));
			lengths[g] = text.length();
			while (this.pending.size() <= g) {
				this.pending.add(new StringBuilder());
				this.pendingBytes.add(0L);
				this.newBytes.add(0L);
				this.dirty.add(false);
			}
			long bytes = Utf8.length(text);
			this.pending.get(g).append(text);
			this.pendingBytes.set(g, this.pendingBytes.get(g) + bytes);
			this.newBytes.set(g, this.newBytes.get(g) + bytes);
			due |= this.pendingBytes.get(g) >= this.window && this.newBytes.get(g) >= this.window - this.overlap;
		}
		this.held.add(new Held(chunk, lengths));
		return due ? screen(false) : Step.NOTHING;
	}

	/**
	 * The stream ended: screens what is left.
	 * @return the rest of the chunks, and the refusal that ends the stream, if any
	 */
	Step finish() {
		return screen(true);
	}

	/**
	 * How many windows and tool calls were screened so far.
	 * @return the count of screenings
	 */
	int screenings() {
		return this.screenings;
	}

	private Step screen(boolean last) {
		int generations = this.pending.size();
		int[] cut = new int[generations];
		for (int g = 0; g < generations; g++) {
			StringBuilder text = this.pending.get(g);
			cut[g] = last ? text.length() : heldStart(text, this.overlap);
		}
		int release = releasable(cut);
		@Nullable String[] deidentified = new String[generations];
		for (int g = 0; g < generations; g++) {
			String text = this.pending.get(g).toString();
			if ((this.newBytes.get(g) == 0 && !this.dirty.get(g)) || text.isBlank()) {
				continue;
			}
			this.screenings++;
			ScreeningDecision decision = this.screenText.apply(text);
			if (decision instanceof Refusal refusal) {
				return new Step(List.of(), refusal);
			}
			deidentified[g] = (decision instanceof Deidentified rewritten) ? rewritten.text() : null;
			this.newBytes.set(g, 0L);
			this.dirty.set(g, deidentified[g] != null);
		}
		release = withinUnchanged(release, deidentified);
		return emit(release, deidentified);
	}

	/** The most chunks, from the oldest, whose text of every generation ends at or before its cut. */
	private int releasable(int[] cut) {
		int[] end = new int[cut.length];
		for (int k = 0; k < this.held.size(); k++) {
			int[] lengths = this.held.get(k).lengths();
			for (int g = 0; g < lengths.length; g++) {
				end[g] += lengths[g];
				if (end[g] > cut[g]) {
					return k;
				}
			}
		}
		return this.held.size();
	}

	/**
	 * Fewer chunks to emit when a generation's de-identified text changed the held text: then only the
	 * part before the change, which the de-identified text leaves as it was, may be emitted.
	 */
	private int withinUnchanged(int release, @Nullable String[] deidentified) {
		int chunks = release;
		boolean lowered = true;
		while (lowered) {
			lowered = false;
			for (int g = 0; g < deidentified.length; g++) {
				String rewritten = deidentified[g];
				if (rewritten == null) {
					continue;
				}
				String text = this.pending.get(g).toString();
				int emitted = end(g, chunks);
				if (rewritten.endsWith(text.substring(emitted)) || emitted <= commonPrefix(rewritten, text)) {
					continue;
				}
				int unchanged = commonPrefix(rewritten, text);
				while (chunks > 0 && end(g, chunks) > unchanged) {
					chunks--;
				}
				lowered = true;
			}
		}
		return chunks;
	}

	private Step emit(int release, @Nullable String[] deidentified) {
		List<ChatClientResponse> out = new ArrayList<>(release);
		List<@Nullable String> replacements = new ArrayList<>();
		for (int g = 0; g < deidentified.length; g++) {
			replacements.add(replacement(g, release, deidentified[g]));
		}
		for (int k = 0; k < release; k++) {
			ChatClientResponse chunk = this.held.get(k).chunk();
			String toolCalls = toolCalls(chunk);
			if (!toolCalls.isBlank()) {
				this.screenings++;
				ScreeningDecision decision = this.screenToolCalls.apply(toolCalls);
				if (decision instanceof Refusal refusal) {
					return new Step(out, refusal);
				}
			}
			out.add(rewritten(chunk, replacements));
		}
		for (int g = 0; g < this.pending.size(); g++) {
			int emitted = end(g, release);
			StringBuilder text = this.pending.get(g);
			text.delete(0, emitted);
			this.pendingBytes.set(g, Utf8.length(text));
		}
		this.held.subList(0, release).clear();
		return new Step(out, null);
	}

	/**
	 * What the emitted chunks carry of generation {@code g}: {@code null} for the model's own text, else the
	 * de-identified text of the part emitted.
	 */
	private @Nullable String replacement(int g, int release, @Nullable String rewritten) {
		if (rewritten == null) {
			return null;
		}
		int emitted = end(g, release);
		if (emitted == 0) {
			// Nothing of this generation is emitted now; its held text is screened again.
			return null;
		}
		String text = this.pending.get(g).toString();
		String kept = text.substring(emitted);
		if (rewritten.endsWith(kept)) {
			return rewritten.substring(0, rewritten.length() - kept.length());
		}
		// The change lies in the held part: the part emitted is the model's text, unchanged.
		return null;
	}

	/**
	 * A chunk as emitted: the generations that are replaced carry the whole replacement in the first chunk
	 * that has the generation, and no text in the others.
	 */
	private static ChatClientResponse rewritten(ChatClientResponse chunk, List<@Nullable String> replacements) {
		List<Generation> generations = ChatResponses.generations(chunk);
		List<Generation> out = new ArrayList<>(generations);
		boolean changed = false;
		for (int g = 0; g < generations.size() && g < replacements.size(); g++) {
			String replacement = replacements.get(g);
			if (replacement != null) {
				out.set(g, ChatResponses.withText(generations.get(g), replacement));
				replacements.set(g, "");
				changed = true;
			}
		}
		return changed ? ChatResponses.withGenerations(chunk, out) : chunk;
	}

	/** Where generation {@code g}'s text of the first {@code chunks} held chunks ends. */
	private int end(int g, int chunks) {
		int end = 0;
		for (int k = 0; k < chunks; k++) {
			int[] lengths = this.held.get(k).lengths();
			end += (g < lengths.length) ? lengths[g] : 0;
		}
		return end;
	}

	/**
	 * The names and arguments of every tool call of a chunk, one per line.
	 * @param chunk the chunk
	 * @return the text to screen, empty when the chunk has no tool calls
	 */
	static String toolCalls(ChatClientResponse chunk) {
		StringBuilder text = new StringBuilder();
		for (Generation generation : ChatResponses.generations(chunk)) {
			AssistantMessage output = generation.getOutput();
			if (output == null) {
				continue;
			}
			for (ToolCall call : output.getToolCalls()) {
				text.append(call.name()).append('\n').append(call.arguments()).append('\n');
			}
		}
		return text.toString();
	}

	/** Where the held part of a text starts: its shortest end that is at least {@code bytes} UTF-8 bytes. */
	private static int heldStart(CharSequence text, int bytes) {
		int start = text.length();
		long kept = 0;
		while (start > 0 && kept < bytes) {
			int codePoint = Character.codePointBefore(text, start);
			kept += Utf8.length(codePoint);
			start -= Character.charCount(codePoint);
		}
		return start;
	}

	private static int commonPrefix(String a, CharSequence b) {
		int n = Math.min(a.length(), b.length());
		int i = 0;
		while (i < n && a.charAt(i) == b.charAt(i)) {
			i++;
		}
		if (i > 0 && i < n && Character.isHighSurrogate(a.charAt(i - 1))) {
			i--;
		}
		return i;
	}

	/**
	 * A held chunk and the length of each of its generations' text.
	 */
	private record Held(ChatClientResponse chunk, int[] lengths) {
	}

	/**
	 * What a step of the stream gives: the chunks to emit now, in order, then the refusal that ends the
	 * stream, if any.
	 *
	 * @param emit the chunks to emit
	 * @param refusal the refusal, or {@code null} when the stream goes on
	 */
	record Step(List<ChatClientResponse> emit, @Nullable Refusal refusal) {

		static final Step NOTHING = new Step(List.of(), null);

	}

}
