package dev.modelarmor.screening.internal.stream;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.internal.Utf8;

/**
 * The chunks of one stream that {@link StreamSegments} received and has not emitted, oldest first, and per
 * generation the text they hold: when a segment is due, and up to which chunk a screened segment may be
 * emitted. A generation's first segment is small, the later ones full size. Not thread-safe.
 *
 * @param <C> the type of the stream's chunks
 */
final class HeldChunks<C> {

	private final int firstSegment;

	private final int firstOverlap;

	private final int segment;

	private final int overlap;

	private final List<Held<C>> held = new ArrayList<>();

	/** Per generation: the text of the held chunks. */
	private final List<StringBuilder> pending = new ArrayList<>();

	/** Per generation: the UTF-8 bytes of {@link #pending}. */
	private final List<Long> pendingBytes = new ArrayList<>();

	/** Per generation: the UTF-8 bytes received since its last segment. */
	private final List<Long> newBytes = new ArrayList<>();

	/** Per generation: whether its held text must be screened again (its last segment was de-identified). */
	private final List<Boolean> dirty = new ArrayList<>();

	/**
	 * Per generation: whether its later segments are full size: some of its text was emitted, or two of its
	 * first segments were screened (so that a generation whose chunks cannot go yet costs no more calls).
	 */
	private final List<Boolean> started = new ArrayList<>();

	/** Per generation: how many of its segments were screened. */
	private final List<Integer> segments = new ArrayList<>();

	/**
	 * Creates the held chunks of one stream.
	 * @param firstSegment the UTF-8 bytes of a generation that wait for its first screening
	 * @param firstOverlap the UTF-8 bytes of the first segment held back for the next one
	 * @param segment the UTF-8 bytes that wait for each later screening
	 * @param overlap the UTF-8 bytes of a later segment held back for the next one
	 */
	HeldChunks(int firstSegment, int firstOverlap, int segment, int overlap) {
		this.firstSegment = firstSegment;
		this.firstOverlap = firstOverlap;
		this.segment = segment;
		this.overlap = overlap;
	}

	/**
	 * Holds a chunk.
	 * @param chunk the chunk
	 * @param texts the text of each of its generations
	 * @return whether a segment is due: at least a segment's bytes of a generation wait (the first segment's
	 * before its first screening, else {@code segment}), and at least that segment less its overlap arrived since
	 * its previous segment
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
				this.started.add(false);
				this.segments.add(0);
			}
			long bytes = Utf8.length(text);
			this.pending.get(g).append(text);
			this.pendingBytes.set(g, this.pendingBytes.get(g) + bytes);
			this.newBytes.set(g, this.newBytes.get(g) + bytes);
			boolean first = !this.started.get(g);
			int size = first ? this.firstSegment : this.segment;
			int kept = first ? this.firstOverlap : this.overlap;
			due |= this.pendingBytes.get(g) >= size && this.newBytes.get(g) >= size - kept;
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
	 * Whether a generation's held text must be screened: text arrived since its last segment, or that
	 * segment was de-identified.
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
		this.segments.set(g, this.segments.get(g) + 1);
		if (this.segments.get(g) >= 2) {
			this.started.set(g, true);
		}
	}

	/**
	 * The most chunks, from the oldest, that a segment screened now lets go: all of them at the end of the
	 * stream, else those whose text of every generation ends at least the segment's overlap before its end
	 * (the first segment's for a generation not started yet), and, where one is near, at the end of a
	 * sentence or a word, so that more is held back rather than less (unless none would go then).
	 * @param last whether the stream ended
	 * @return the count of chunks
	 */
	int releasable(boolean last) {
		int[] cut = new int[this.pending.size()];
		int[] atBoundary = new int[cut.length];
		for (int g = 0; g < cut.length; g++) {
			StringBuilder text = this.pending.get(g);
			int kept = this.started.get(g) ? this.overlap : this.firstOverlap;
			cut[g] = last ? text.length() : heldStart(text, kept);
			atBoundary[g] = last ? cut[g] : boundaryBefore(text, cut[g], kept / 2);
		}
		int chunks = releasable(atBoundary);
		return (chunks > 0) ? chunks : releasable(cut);
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
			if (emitted > 0) {
				this.started.set(g, true);
			}
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
	 * Where to cut a text at or before {@code cut}, at most {@code near} characters earlier: the last end of a
	 * sentence there, else the last end of a word, else {@code cut}; never 0.
	 */
	private static int boundaryBefore(CharSequence text, int cut, int near) {
		int word = -1;
		for (int at = cut; at > 0 && at >= cut - near; at--) {
			if (sentenceEnds(text, at)) {
				return at;
			}
			if (word < 0 && (Character.isWhitespace(text.charAt(at - 1))
					|| (at < text.length() && Character.isWhitespace(text.charAt(at))))) {
				word = at;
			}
		}
		return (word > 0) ? word : cut;
	}

	/** Whether a sentence ends just before {@code at}: a line break, or its punctuation and a space. */
	private static boolean sentenceEnds(CharSequence text, int at) {
		char before = text.charAt(at - 1);
		if (before == '\n' || before == '\u3002' || before == '\uFF01' || before == '\uFF1F') {
			return true;
		}
		if (!Character.isWhitespace(before) || at < 2) {
			return false;
		}
		char end = text.charAt(at - 2);
		return end == '.' || end == '!' || end == '?';
	}

	/**
	 * A held chunk and the length of each of its generations' text.
	 */
	private record Held<C>(C chunk, int[] lengths) {
	}

}
