package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.client.Utf8;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;

/**
 * The windowed screening of one streamed answer, shared by the Spring AI advisor's windowed stream mode
 * and {@code @ModelArmorGuarded} methods that return a {@code Flux}: which of the stream's chunks may be
 * emitted, once the text that holds them has been screened. Each screening is asynchronous (a
 * {@link ModelArmorScreening#screenAsync(ScreeningRequest)} future), so no thread waits for one.
 *
 * <p>Each generation's text is screened on its own, in windows. A window is everything received and not
 * yet emitted; it is screened once at least {@code window} UTF-8 bytes are waiting and at least
 * {@code window - overlap} of them arrived since the previous window, and at the end of the stream for
 * what is left (so an answer shorter than a window is screened once, at the end). After a window passes,
 * the chunks that end at least {@code overlap} bytes before its end are emitted, as the stream sent them;
 * the rest is held back and is the head of the next window. A match shorter than the overlap therefore
 * lies whole in a window before any of it is emitted, whichever chunks or windows it spans, and every
 * emitted chunk's text was screened, the overlap emitted once.
 *
 * <p>A de-identified window is emitted as its de-identified text: in the first emitted chunk of the
 * generation, the others emitting none of its text. Only a part that the de-identified text leaves
 * unchanged is held back: when the change reaches into the held part, the emitted part ends before the
 * change (its text is then the stream's, which the de-identified text leaves as it was), and the held part
 * is screened again with the next window or at the end.
 *
 * <p>The other parts of a chunk travel with it and are emitted only with it. A chunk's tool calls, if its
 * kind has any, are screened (one call per chunk that has any) before the chunk is emitted.
 *
 * <p>Not thread-safe: one stream gives it its chunks one at a time, each after the previous step's future
 * completed; only {@link #cancel()} may come from another thread.
 *
 * @param <C> the type of the stream's chunks
 */
public final class StreamWindows<C> {

	/** The UTF-8 bytes that wait for one screening unless the caller chooses. */
	public static final int DEFAULT_WINDOW = 2048;

	private final int window;

	private final int overlap;

	private final Chunks<C> chunks;

	private final Function<String, CompletableFuture<ScreeningDecision>> screenText;

	private final Function<String, CompletableFuture<ScreeningDecision>> screenToolCalls;

	/** The chunks received and not emitted, oldest first. */
	private final List<Held<C>> held = new ArrayList<>();

	/** Per generation: the text of the held chunks. */
	private final List<StringBuilder> pending = new ArrayList<>();

	/** Per generation: the UTF-8 bytes of {@link #pending}. */
	private final List<Long> pendingBytes = new ArrayList<>();

	/** Per generation: the UTF-8 bytes received since its last window. */
	private final List<Long> newBytes = new ArrayList<>();

	/** Per generation: whether its held text must be screened again (its last window was de-identified). */
	private final List<Boolean> dirty = new ArrayList<>();

	private volatile int screenings;

	private volatile boolean cancelled;

	private volatile @Nullable CompletableFuture<ScreeningDecision> inFlight;

	/**
	 * Creates the screening of one stream.
	 * @param window the UTF-8 bytes that wait for a screening
	 * @param overlap the UTF-8 bytes of a window held back for the next one, at most half of {@code window}
	 * @param chunks reads and rewrites the text of a chunk
	 * @param screenText screens one window of one generation's text
	 * @param screenToolCalls screens the names and arguments of one chunk's tool calls
	 */
	public StreamWindows(int window, int overlap, Chunks<C> chunks,
			Function<String, CompletableFuture<ScreeningDecision>> screenText,
			Function<String, CompletableFuture<ScreeningDecision>> screenToolCalls) {
		if (window <= 0 || overlap < 0 || overlap > window / 2) {
			throw new IllegalArgumentException("window must be positive and overlap from 0 to half of window");
		}
		this.window = window;
		this.overlap = overlap;
		this.chunks = chunks;
		this.screenText = screenText;
		this.screenToolCalls = screenToolCalls;
	}

	/**
	 * A chunk arrived.
	 * @param chunk the chunk
	 * @return the chunks that may be emitted now, and the refusal that ends the stream, if any
	 */
	public CompletableFuture<Step<C>> accept(C chunk) {
		List<String> texts = this.chunks.texts(chunk);
		int[] lengths = new int[texts.size()];
		boolean due = false;
		for (int g = 0; g < texts.size(); g++) {
			String text = texts.get(g);
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
		this.held.add(new Held<>(chunk, lengths));
		return due ? screen(false) : CompletableFuture.completedFuture(Step.nothing());
	}

	/**
	 * The stream ended: screens what is left.
	 * @return the rest of the chunks, and the refusal that ends the stream, if any
	 */
	public CompletableFuture<Step<C>> finish() {
		return screen(true);
	}

	/**
	 * How many windows and tool calls were screened so far.
	 * @return the count of screenings
	 */
	public int screenings() {
		return this.screenings;
	}

	/**
	 * The stream was cancelled: cancels the screening in flight, if any, and starts no other.
	 */
	public void cancel() {
		this.cancelled = true;
		CompletableFuture<ScreeningDecision> call = this.inFlight;
		if (call != null) {
			call.cancel(true);
		}
	}

	private CompletableFuture<ScreeningDecision> call(Function<String, CompletableFuture<ScreeningDecision>> screen,
			String text) {
		if (this.cancelled) {
			return CompletableFuture.failedFuture(new CancellationException("stream cancelled"));
		}
		this.screenings++;
		CompletableFuture<ScreeningDecision> call = screen.apply(text);
		this.inFlight = call;
		if (this.cancelled) {
			call.cancel(true);
		}
		return call;
	}

	private CompletableFuture<Step<C>> screen(boolean last) {
		int generations = this.pending.size();
		int[] cut = new int[generations];
		for (int g = 0; g < generations; g++) {
			StringBuilder text = this.pending.get(g);
			cut[g] = last ? text.length() : heldStart(text, this.overlap);
		}
		int release = releasable(cut);
		@Nullable String[] deidentified = new String[generations];
		return screenGeneration(0, deidentified).thenCompose((refusal) -> {
			if (refusal != null) {
				return CompletableFuture.completedFuture(new Step<>(List.of(), refusal));
			}
			return emit(withinUnchanged(release, deidentified), deidentified);
		});
	}

	/** Screens generation {@code g} and those after it, one at a time; completes with the first refusal. */
	private CompletableFuture<@Nullable Refusal> screenGeneration(int g, @Nullable String[] deidentified) {
		if (g >= this.pending.size()) {
			return CompletableFuture.completedFuture(null);
		}
		String text = this.pending.get(g).toString();
		if ((this.newBytes.get(g) == 0 && !this.dirty.get(g)) || text.isBlank()) {
			return screenGeneration(g + 1, deidentified);
		}
		return call(this.screenText, text).thenCompose((decision) -> {
			if (decision instanceof Refusal refusal) {
				return CompletableFuture.completedFuture(refusal);
			}
			deidentified[g] = (decision instanceof Deidentified rewritten) ? rewritten.text() : null;
			this.newBytes.set(g, 0L);
			this.dirty.set(g, deidentified[g] != null);
			return screenGeneration(g + 1, deidentified);
		});
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

	private CompletableFuture<Step<C>> emit(int release, @Nullable String[] deidentified) {
		List<@Nullable String> replacements = new ArrayList<>();
		for (int g = 0; g < deidentified.length; g++) {
			replacements.add(replacement(g, release, deidentified[g]));
		}
		return emitChunk(0, release, replacements, new ArrayList<>(release));
	}

	/** Screens the tool calls of held chunk {@code k} and emits it, then the next, up to {@code release}. */
	private CompletableFuture<Step<C>> emitChunk(int from, int release, List<@Nullable String> replacements,
			List<C> out) {
		int k = from;
		String toolCalls = "";
		while (k < release && (toolCalls = this.chunks.toolCalls(this.held.get(k).chunk())).isBlank()) {
			out.add(rewritten(this.held.get(k).chunk(), replacements));
			k++;
		}
		if (k >= release) {
			for (int g = 0; g < this.pending.size(); g++) {
				int emitted = end(g, release);
				StringBuilder text = this.pending.get(g);
				text.delete(0, emitted);
				this.pendingBytes.set(g, Utf8.length(text));
			}
			this.held.subList(0, release).clear();
			return CompletableFuture.completedFuture(new Step<>(out, null));
		}
		C chunk = this.held.get(k).chunk();
		int next = k + 1;
		return call(this.screenToolCalls, toolCalls).thenCompose((decision) -> {
			if (decision instanceof Refusal refusal) {
				return CompletableFuture.completedFuture(new Step<>(out, refusal));
			}
			out.add(rewritten(chunk, replacements));
			return emitChunk(next, release, replacements, out);
		});
	}

	/**
	 * What the emitted chunks carry of generation {@code g}: {@code null} for the stream's own text, else the
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
		// The change lies in the held part: the part emitted is the stream's text, unchanged.
		return null;
	}

	/**
	 * A chunk as emitted: the generations that are replaced carry the whole replacement in the first chunk
	 * that has the generation, and no text in the others.
	 */
	private C rewritten(C chunk, List<@Nullable String> replacements) {
		int generations = this.chunks.texts(chunk).size();
		List<@Nullable String> texts = new ArrayList<>(generations);
		boolean changed = false;
		for (int g = 0; g < generations; g++) {
			String replacement = (g < replacements.size()) ? replacements.get(g) : null;
			texts.add(replacement);
			if (replacement != null) {
				replacements.set(g, "");
				changed = true;
			}
		}
		return changed ? this.chunks.withTexts(chunk, texts) : chunk;
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
	 * Reads and rewrites the text of one kind of chunk.
	 *
	 * @param <C> the type of the chunks
	 */
	public interface Chunks<C> {

		/**
		 * The text of each of a chunk's generations (one for a stream of plain text).
		 * @param chunk the chunk
		 * @return the texts, empty strings for generations without text
		 */
		List<String> texts(C chunk);

		/**
		 * The chunk with some generations' text replaced.
		 * @param chunk the chunk
		 * @param texts per generation, the new text or {@code null} to keep the chunk's
		 * @return the rewritten chunk
		 */
		C withTexts(C chunk, List<@Nullable String> texts);

		/**
		 * The names and arguments of the chunk's tool calls, to screen before it is emitted.
		 * @param chunk the chunk
		 * @return the text to screen, empty when the chunk has none
		 */
		default String toolCalls(C chunk) {
			return "";
		}

	}

	/**
	 * A held chunk and the length of each of its generations' text.
	 */
	private record Held<C>(C chunk, int[] lengths) {
	}

	/**
	 * What a step of the stream gives: the chunks to emit now, in order, then the refusal that ends the
	 * stream, if any.
	 *
	 * @param <C> the type of the chunks
	 * @param emit the chunks to emit
	 * @param refusal the refusal, or {@code null} when the stream goes on
	 */
	public record Step<C>(List<C> emit, @Nullable Refusal refusal) {

		static <C> Step<C> nothing() {
			return new Step<>(List.of(), null);
		}

	}

}
