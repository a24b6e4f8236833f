package dev.modelarmor.screening.internal.stream;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.screening.internal.stream.StreamSegments.Chunks;
import org.jspecify.annotations.Nullable;

/**
 * How {@link StreamSegments} emits a segment that was de-identified: how many of the held chunks may go (only
 * the part that the de-identified text leaves unchanged may be held back), and what the emitted chunks
 * carry of the de-identified text (all of it in the first chunk of the generation, none in the others).
 */
final class StreamDeidentification {

	private StreamDeidentification() {
	}

	/**
	 * Fewer chunks to emit when a generation's de-identified text changed the held text: then only the
	 * part before the change, which the de-identified text leaves as it was, may be emitted.
	 * @param held the held chunks
	 * @param release how many chunks the segment lets go
	 * @param deidentified per generation, its de-identified text, or {@code null} when it was not changed
	 * @return how many chunks may be emitted
	 */
	static int withinUnchanged(HeldChunks<?> held, int release, @Nullable String[] deidentified) {
		int chunks = release;
		boolean lowered = true;
		while (lowered) {
			lowered = false;
			for (int g = 0; g < deidentified.length; g++) {
				String rewritten = deidentified[g];
				if (rewritten == null) {
					continue;
				}
				String text = held.text(g);
				int emitted = held.end(g, chunks);
				if (rewritten.endsWith(text.substring(emitted)) || emitted <= commonPrefix(rewritten, text)) {
					continue;
				}
				int unchanged = commonPrefix(rewritten, text);
				while (chunks > 0 && held.end(g, chunks) > unchanged) {
					chunks--;
				}
				lowered = true;
			}
		}
		return chunks;
	}

	/**
	 * What the emitted chunks carry of each generation.
	 * @param held the held chunks
	 * @param release how many chunks are emitted
	 * @param deidentified per generation, its de-identified text, or {@code null} when it was not changed
	 * @return per generation, {@code null} for the stream's own text, else the de-identified text of the
	 * part emitted; {@link #rewritten} empties an entry once a chunk carried it
	 */
	static List<@Nullable String> replacements(HeldChunks<?> held, int release, @Nullable String[] deidentified) {
		List<@Nullable String> replacements = new ArrayList<>();
		for (int g = 0; g < deidentified.length; g++) {
			replacements.add(replacement(held, g, release, deidentified[g]));
		}
		return replacements;
	}

	/**
	 * A chunk as emitted: the generations that are replaced carry the whole replacement in the first chunk
	 * that has the generation, and no text in the others.
	 * @param <C> the type of the chunks
	 * @param chunks reads and rewrites the text of a chunk
	 * @param chunk the chunk
	 * @param replacements what the emitted chunks still carry of each generation, emptied as they carry it
	 * @return the chunk, rewritten when it carries a replacement
	 */
	static <C> C rewritten(Chunks<C> chunks, C chunk, List<@Nullable String> replacements) {
		int generations = chunks.texts(chunk).size();
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
		return changed ? chunks.withTexts(chunk, texts) : chunk;
	}

	private static @Nullable String replacement(HeldChunks<?> held, int g, int release, @Nullable String rewritten) {
		if (rewritten == null) {
			return null;
		}
		int emitted = held.end(g, release);
		if (emitted == 0) {
			// Nothing of this generation is emitted now; its held text is screened again.
			return null;
		}
		String text = held.text(g);
		String kept = text.substring(emitted);
		if (rewritten.endsWith(kept)) {
			return rewritten.substring(0, rewritten.length() - kept.length());
		}
		// The change lies in the held part: the part emitted is the stream's text, unchanged.
		return null;
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

}
