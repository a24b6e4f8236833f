package dev.modelarmor.screening.internal.stream;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.internal.Utf8;

/**
 * The chunks of one stream that {@link StreamWindows} received and has not emitted, oldest first, and per
 * generation the text they hold: when a window is due, and up to which chunk a screened window may be
 * emitted. Not thread-safe.
 *
 * @param <C> the type of the stream's chunks
 */
final class HeldChunks<C> {

	private final int window;

	private final int overlap;

	private final List<Held<C>> held = new ArrayList<>();

	/** Per generation: the text of the held chunks. */
	private final List<StringBuilder> pending = new ArrayList<>();

	/** Per generation: the UTF-8 bytes of {@link #pending}. */
	private final List<Long> pendingBytes = new ArrayList<>();

	/** Per generation: the UTF-8 bytes received since its last window. */
	private final List<Long> newBytes = new ArrayList<>();

	/** Per generation: whether its held text must be screened again (its last window was de-identified). */
	private final List<Boolean> dirty = new ArrayList<>();

	/**
	 * Creates the held chunks of one stream.
	 * @param window the UTF-8 bytes that wait for a screening
	 * @param overlap the UTF-8 bytes of a window held back for the next one
	 */
	HeldChunks(int window, int overlap) {
		this.window = window;
		this.overlap = overlap;
	}

	/**
	 * Holds a chunk.
	 * @param chunk the chunk
	 * @param texts the text of each of its generations
	 * @return whether a window is due: at least {@code window} bytes of a generation wait, and at least
	 * {@code window - overlap} of them arrived since its previous window
	 */
	boolean add(C chunk, List<String> texts) {
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
		return due;
	}

	/**
	 * How many generations the stream's chunks had so far.
	 * @return the count of generations
	 */
	int generations() {
		return this.pending.size();
	}

	/**
	 * The held text of a generation.
	 * @param g the generation
	 * @return its text
	 */
	String text(int g) {
		return this.pending.get(g).toString();
	}

	/**
	 * Whether a generation's held text must be screened: text arrived since its last window, or that
	 * window was de-identified.
	 * @param g the generation
	 * @return whether to screen it
	 */
	boolean unscreened(int g) {
		return this.newBytes.get(g) != 0 || this.dirty.get(g);
	}

	/**
	 * A generation's held text was screened.
	 * @param g the generation
	 * @param deidentified whether it was de-identified, and so must be screened again
	 */
	void screened(int g, boolean deidentified) {
		this.newBytes.set(g, 0L);
		this.dirty.set(g, deidentified);
	}

	/**
	 * The most chunks, from the oldest, that a window screened now lets go: all of them at the end of the
	 * stream, else those whose text of every generation ends at least {@code overlap} bytes before its end.
	 * @param last whether the stream ended
	 * @return the count of chunks
	 */
	int releasable(boolean last) {
		int[] cut = new int[this.pending.size()];
		for (int g = 0; g < cut.length; g++) {
			StringBuilder text = this.pending.get(g);
			cut[g] = last ? text.length() : heldStart(text, this.overlap);
		}
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
	 * The held chunk at a position.
	 * @param k the position, 0 for the oldest
	 * @return the chunk
	 */
	C chunk(int k) {
		return this.held.get(k).chunk();
	}

	/**
	 * Where a generation's text of the oldest chunks ends.
	 * @param g the generation
	 * @param chunks how many chunks, from the oldest
	 * @return the length of their text of the generation
	 */
	int end(int g, int chunks) {
		int end = 0;
		for (int k = 0; k < chunks; k++) {
			int[] lengths = this.held.get(k).lengths();
			end += (g < lengths.length) ? lengths[g] : 0;
		}
		return end;
	}

	/**
	 * Lets the oldest chunks go, emitted, with their text.
	 * @param chunks how many chunks, from the oldest
	 */
	void release(int chunks) {
		for (int g = 0; g < this.pending.size(); g++) {
			int emitted = end(g, chunks);
			StringBuilder text = this.pending.get(g);
			text.delete(0, emitted);
			this.pendingBytes.set(g, Utf8.length(text));
		}
		this.held.subList(0, chunks).clear();
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

	/**
	 * A held chunk and the length of each of its generations' text.
	 */
	private record Held<C>(C chunk, int[] lengths) {
	}

}
