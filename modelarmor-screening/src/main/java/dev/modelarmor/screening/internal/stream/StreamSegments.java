package dev.modelarmor.screening.internal.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * The segmented screening of one streamed answer, shared by the Spring AI advisor's segmented stream mode
 * and {@code @ModelArmorGuarded} methods that return a {@code Flux}: which of the stream's chunks may be
 * emitted, once the text that holds them has been screened. Each screening is asynchronous (a
 * {@link ModelArmorScreening#screenAsync(ScreeningRequest)} future), so no thread waits for one.
 *
 * <p>Each generation's text is screened on its own, in segments. A segment is everything received and not
 * yet emitted; it is screened once at least a segment's UTF-8 bytes are waiting and at least the segment less
 * its overlap arrived since the previous segment, and at the end of the stream for what is left. The first
 * segment is small ({@code firstSegment}, about the model's first sentence; its overlap is half of it, at
 * most {@code overlap}), so that the answer starts reaching the caller one screening after it; the later
 * ones are {@code segment} bytes with {@code overlap}, so that a longer answer costs about the calls it
 * would in full segments only (an answer shorter than {@code firstSegment} is screened once, at the end;
 * one shorter than {@code segment} at most twice when its chunks are shorter than the first segment's
 * overlap; a first segment that can emit none of its chunks is followed by a second small one). After a segment passes, the chunks that end at least its
 * overlap before its end are emitted, as the stream sent them, cut at the end of a sentence or a word
 * where one is within half the overlap before (more is then held back); the rest is held back and is the
 * head of the next segment. A match shorter than the first segment's overlap, or past the first segment
 * shorter than {@code overlap}, therefore lies whole in a segment before any of it is emitted, whichever
 * chunks or segments it spans, and every emitted chunk's text was screened, the overlap emitted once.
 *
 * <p>A de-identified segment is emitted as its de-identified text: in the first emitted chunk of the
 * generation, the others emitting none of its text. Only a part that the de-identified text leaves
 * unchanged is held back: when the change reaches into the held part, the emitted part ends before the
 * change (its text is then the stream's, which the de-identified text leaves as it was), and the held part
 * is screened again with the next segment or at the end.
 *
 * <p>The other parts of a chunk travel with it and are emitted only with it. A chunk's tool calls, if its
 * kind has any, are screened (one call per chunk that has any) before the chunk is emitted.
 *
 * <p>Not thread-safe: one stream gives it its chunks one at a time, each after the previous step's future
 * completed; only {@link #cancel()} may come from another thread.
 *
 * @param <C> the type of the stream's chunks
 */
public final class StreamSegments<C> {

	/** The UTF-8 bytes that wait for one screening unless the caller chooses. */
	public static final int DEFAULT_SEGMENT = 2048;

	/**
	 * The UTF-8 bytes that wait for the first screening of a generation unless the caller chooses: about a
	 * first sentence or two, half of it released once it passed.
	 */
	public static final int DEFAULT_FIRST_SEGMENT = 256;

	private final Chunks<C> chunks;

	private final Function<String, CompletableFuture<ScreeningDecision>> screenText;

	private final Function<String, CompletableFuture<ScreeningDecision>> screenToolCalls;

	private final HeldChunks<C> held;

	private volatile int screenings;

	private volatile boolean cancelled;

	private volatile @Nullable CompletableFuture<ScreeningDecision> inFlight;

	/**
	 * Creates the screening of one stream, its first segment {@link #DEFAULT_FIRST_SEGMENT} bytes (or
	 * {@code segment} when that is smaller).
	 * @param segment the UTF-8 bytes that wait for a screening
	 * @param overlap the UTF-8 bytes of a segment held back for the next one, at most half of {@code segment}
	 * @param chunks reads and rewrites the text of a chunk
	 * @param screenText screens one segment of one generation's text
	 * @param screenToolCalls screens the names and arguments of one chunk's tool calls
	 */
	public StreamSegments(int segment, int overlap, Chunks<C> chunks,
			Function<String, CompletableFuture<ScreeningDecision>> screenText,
			Function<String, CompletableFuture<ScreeningDecision>> screenToolCalls) {
		this(Math.min(DEFAULT_FIRST_SEGMENT, segment), segment, overlap, chunks, screenText, screenToolCalls);
	}

	/**
	 * Creates the screening of one stream.
	 * @param firstSegment the UTF-8 bytes that wait for the first screening of a generation, from 1 to
	 * {@code segment}; half of it, at most {@code overlap}, is held back for the next segment. {@code segment}
	 * screens every segment alike
	 * @param segment the UTF-8 bytes that wait for a later screening
	 * @param overlap the UTF-8 bytes of a segment held back for the next one, at most half of {@code segment}
	 * @param chunks reads and rewrites the text of a chunk
	 * @param screenText screens one segment of one generation's text
	 * @param screenToolCalls screens the names and arguments of one chunk's tool calls
	 */
	public StreamSegments(int firstSegment, int segment, int overlap, Chunks<C> chunks,
			Function<String, CompletableFuture<ScreeningDecision>> screenText,
			Function<String, CompletableFuture<ScreeningDecision>> screenToolCalls) {
		if (segment <= 0 || overlap < 0 || overlap > segment / 2) {
			throw new IllegalArgumentException("segment must be positive and overlap from 0 to half of segment");
		}
		if (firstSegment <= 0 || firstSegment > segment) {
			throw new IllegalArgumentException("the first segment must be from 1 byte to segment");
		}
		this.chunks = chunks;
		this.screenText = screenText;
		this.screenToolCalls = screenToolCalls;
		this.held = new HeldChunks<>(firstSegment, Math.min(overlap, firstSegment / 2), segment, overlap);
	}

	/**
	 * A chunk arrived.
	 * @param chunk the chunk
	 * @return the chunks that may be emitted now, and the refusal that ends the stream, if any
	 */
	public CompletableFuture<Step<C>> accept(C chunk) {
		boolean due = this.held.add(chunk, this.chunks.texts(chunk));
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
	 * How many segments and tool calls were screened so far.
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
		int release = this.held.releasable(last);
		@Nullable String[] deidentified = new String[this.held.generations()];
		return screenGeneration(0, deidentified).thenCompose((refusal) -> {
			if (refusal != null) {
				return CompletableFuture.completedFuture(new Step<>(List.of(), refusal));
			}
			int emitted = StreamDeidentification.withinUnchanged(this.held, release, deidentified);
			return emitChunk(0, emitted, StreamDeidentification.replacements(this.held, emitted, deidentified),
					new ArrayList<>(emitted));
		});
	}

	/** Screens generation {@code g} and those after it, one at a time; completes with the first refusal. */
	private CompletableFuture<@Nullable Refusal> screenGeneration(int g, @Nullable String[] deidentified) {
		if (g >= this.held.generations()) {
			return CompletableFuture.completedFuture(null);
		}
		String text = this.held.text(g);
		if (!this.held.unscreened(g) || text.isBlank()) {
			return screenGeneration(g + 1, deidentified);
		}
		return call(this.screenText, text).thenCompose((decision) -> {
			if (decision instanceof Refusal refusal) {
				return CompletableFuture.completedFuture(refusal);
			}
			deidentified[g] = (decision instanceof Deidentified rewritten) ? rewritten.text() : null;
			this.held.screened(g, deidentified[g] != null);
			return screenGeneration(g + 1, deidentified);
		});
	}

	/** Screens the tool calls of held chunk {@code k} and emits it, then the next, up to {@code release}. */
	private CompletableFuture<Step<C>> emitChunk(int from, int release, List<@Nullable String> replacements,
			List<C> out) {
		int k = from;
		String toolCalls = "";
		while (k < release && (toolCalls = this.chunks.toolCalls(this.held.chunk(k))).isBlank()) {
			out.add(StreamDeidentification.rewritten(this.chunks, this.held.chunk(k), replacements));
			k++;
		}
		if (k >= release) {
			this.held.release(release);
			return CompletableFuture.completedFuture(new Step<>(out, null));
		}
		C chunk = this.held.chunk(k);
		int next = k + 1;
		return call(this.screenToolCalls, toolCalls).thenCompose((decision) -> {
			if (decision instanceof Refusal refusal) {
				return CompletableFuture.completedFuture(new Step<>(out, refusal));
			}
			out.add(StreamDeidentification.rewritten(this.chunks, chunk, replacements));
			return emitChunk(next, release, replacements, out);
		});
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
