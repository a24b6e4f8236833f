package dev.modelarmor.ai.advisor;

import java.util.Objects;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.WindowSettings;

import org.springframework.core.Ordered;

/**
 * How a {@link ModelArmorAdvisor} acts. Free of Spring AI types, so that it can be bound from
 * configuration properties without Spring AI on the class path.
 *
 * @param onMatch what a match does: block, go on with de-identified text, or log and go on
 * @param onBlock what a blocked call returns: the {@code refusal} as the assistant's answer, or an
 * exception
 * @param refusal the assistant's answer to a blocked call with {@link OnBlock#REFUSE}; it must not name
 * anything of the content
 * @param order the advisor's place in the chain; the lower, the earlier
 * @param streamMode how a streamed answer is screened
 * @param streamSegment with {@link StreamMode#SEGMENTED}, the UTF-8 bytes of answer text that wait for one
 * screening: from {@value #MIN_STREAM_SEGMENT} to {@value #MAX_STREAM_SEGMENT}; a quarter of it (the
 * overlap) is held back and screened again with the next segment. The first segment of an answer is smaller
 * ({@code StreamSegments.DEFAULT_FIRST_SEGMENT}), so that its first sentences are emitted early
 * @param parallelPromptScreening whether the model call starts while the prompt is being screened: its
 * answer is released only after the prompt's verdict, tools wait for the verdict, and a blocked prompt's
 * answer is discarded (the model's tokens are spent all the same). Not with {@link MatchAction#DEIDENTIFY},
 * which needs the de-identified prompt before the model reads it
 */
public record ModelArmorAdvisorOptions(MatchAction onMatch, OnBlock onBlock, String refusal, int order,
		StreamMode streamMode, int streamSegment, boolean parallelPromptScreening) {

	/** The default refusal: it says that the request was declined and nothing about it. */
	public static final String DEFAULT_REFUSAL = "Sorry, I cannot help with that request.";

	/**
	 * The default order: early, before chat memory ({@code HIGHEST_PRECEDENCE + 1000}) and tool calling,
	 * so that a blocked prompt reaches neither.
	 */
	public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	/** The smallest stream segment, the smallest window of long text ({@code WindowSettings.MIN_SIZE}). */
	public static final int MIN_STREAM_SEGMENT = 1024;

	/** The largest stream segment: what Model Armor takes in one request ({@code DataItem.MAX_BYTES}). */
	public static final int MAX_STREAM_SEGMENT = 4 * 1024 * 1024;

	/**
	 * The default stream segment, 2 KiB: about 500 tokens of English wait for their screening, and 512
	 * bytes of them are held back for the next segment.
	 */
	public static final int DEFAULT_STREAM_SEGMENT = 2048;

	/** The default stream mode. */
	public static final StreamMode DEFAULT_STREAM_MODE = StreamMode.SEGMENTED;

	/**
	 * Whether the prompt is screened while the model starts, by default: no, the model starts once the
	 * prompt has passed, so that a blocked prompt costs no model tokens.
	 */
	public static final boolean DEFAULT_PARALLEL_PROMPT_SCREENING = false;

	/** Block with the default refusal, segmented streaming, at {@link #DEFAULT_ORDER}, prompt screened first. */
	public static final ModelArmorAdvisorOptions DEFAULTS = new ModelArmorAdvisorOptions(MatchAction.BLOCK,
			OnBlock.REFUSE, DEFAULT_REFUSAL, DEFAULT_ORDER, DEFAULT_STREAM_MODE, DEFAULT_STREAM_SEGMENT,
			DEFAULT_PARALLEL_PROMPT_SCREENING);

	/**
	 * Creates the options.
	 * @throws IllegalArgumentException when {@code streamSegment} is out of range
	 * @throws IllegalStateException when {@code parallelPromptScreening} is set with
	 * {@link MatchAction#DEIDENTIFY}
	 */
	public ModelArmorAdvisorOptions {
		Objects.requireNonNull(onMatch, "onMatch");
		Objects.requireNonNull(onBlock, "onBlock");
		Objects.requireNonNull(refusal, "refusal");
		Objects.requireNonNull(streamMode, "streamMode");
		if (streamSegment < MIN_STREAM_SEGMENT || streamSegment > MAX_STREAM_SEGMENT) {
			throw new IllegalArgumentException("must be from " + MIN_STREAM_SEGMENT + " bytes (1KB) to "
					+ MAX_STREAM_SEGMENT + " bytes (4MB)");
		}
		if (parallelPromptScreening && onMatch == MatchAction.DEIDENTIFY) {
			// The model would read the prompt before its de-identified text exists.
			throw new IllegalStateException("cannot be used with on-match deidentify: the model would read the "
					+ "prompt before it is de-identified");
		}
	}

	/**
	 * Creates the options with the prompt screened before the model starts.
	 * @param onMatch what a match does
	 * @param onBlock what a blocked call returns
	 * @param refusal the assistant's answer to a blocked call
	 * @param order the advisor's place in the chain
	 * @param streamMode how a streamed answer is screened
	 * @param streamSegment the UTF-8 bytes of a stream segment
	 */
	public ModelArmorAdvisorOptions(MatchAction onMatch, OnBlock onBlock, String refusal, int order,
			StreamMode streamMode, int streamSegment) {
		this(onMatch, onBlock, refusal, order, streamMode, streamSegment, DEFAULT_PARALLEL_PROMPT_SCREENING);
	}

	/**
	 * Creates the options with the {@link #DEFAULT_STREAM_SEGMENT default stream segment}.
	 * @param onMatch what a match does
	 * @param onBlock what a blocked call returns
	 * @param refusal the assistant's answer to a blocked call
	 * @param order the advisor's place in the chain
	 * @param streamMode how a streamed answer is screened
	 */
	public ModelArmorAdvisorOptions(MatchAction onMatch, OnBlock onBlock, String refusal, int order,
			StreamMode streamMode) {
		this(onMatch, onBlock, refusal, order, streamMode, DEFAULT_STREAM_SEGMENT);
	}

	/**
	 * The bytes of a stream segment that are held back and screened again with the next segment: a quarter
	 * of it, so that anything shorter (a sentence, a card number, a URL) across a segment's edge lies whole
	 * in one segment before any of it is emitted.
	 * @return the overlap in UTF-8 bytes
	 */
	public int streamOverlap() {
		return this.streamSegment / 4;
	}

	/**
	 * These options with another match action.
	 * @param onMatch the match action
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withOnMatch(MatchAction onMatch) {
		return new ModelArmorAdvisorOptions(onMatch, this.onBlock, this.refusal, this.order, this.streamMode,
				this.streamSegment, this.parallelPromptScreening);
	}

	/**
	 * These options with another block behaviour.
	 * @param onBlock the block behaviour
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withOnBlock(OnBlock onBlock) {
		return new ModelArmorAdvisorOptions(this.onMatch, onBlock, this.refusal, this.order, this.streamMode,
				this.streamSegment, this.parallelPromptScreening);
	}

	/**
	 * These options with another stream mode.
	 * @param streamMode the stream mode
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withStreamMode(StreamMode streamMode) {
		return new ModelArmorAdvisorOptions(this.onMatch, this.onBlock, this.refusal, this.order, streamMode,
				this.streamSegment, this.parallelPromptScreening);
	}

	/**
	 * These options with another stream segment.
	 * @param streamSegment the stream segment in UTF-8 bytes
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withStreamSegment(int streamSegment) {
		return new ModelArmorAdvisorOptions(this.onMatch, this.onBlock, this.refusal, this.order, this.streamMode,
				streamSegment, this.parallelPromptScreening);
	}

	/**
	 * These options with the prompt screened while the model starts, or before.
	 * @param parallelPromptScreening whether the model call starts while the prompt is being screened
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withParallelPromptScreening(boolean parallelPromptScreening) {
		return new ModelArmorAdvisorOptions(this.onMatch, this.onBlock, this.refusal, this.order, this.streamMode,
				this.streamSegment, parallelPromptScreening);
	}

	/**
	 * What a blocked call returns: a blocked prompt (a match that blocks, or a prompt that could not be
	 * screened with fail-open off) and a blocked answer alike.
	 */
	public enum OnBlock {

		/**
		 * The refusal as the assistant's answer, with metadata telling that it was blocked; the caller sees
		 * an ordinary answer.
		 */
		REFUSE,

		/**
		 * {@code ModelArmorViolationException} for a match, {@code ModelArmorNotScreenedException} for
		 * screening that could not complete, {@code ModelArmorInputRejectedException} for text that Model
		 * Armor refused.
		 */
		THROW

	}

	/**
	 * How a streamed answer is screened.
	 */
	public enum StreamMode {

		/**
		 * Collect every chunk, screen the joined text once at the end, then emit the original chunks, or
		 * one chunk with the refusal or the de-identified text. Nothing reaches the caller before it is
		 * screened, at the cost of the stream's progressiveness: the caller waits for the whole answer.
		 */
		BUFFERED,

		/**
		 * Screen each chunk's text as it arrives and emit it once screened; a blocked chunk ends the stream
		 * with the refusal (or an error). The answer stays progressive, but earlier chunks have already
		 * reached the caller when a later one is blocked, a chunk is screened without the text around it
		 * (a match split over chunks can go unseen), and every chunk costs a Model Armor call.
		 */
		PER_CHUNK,

		/**
		 * Hold the answer back until the segment of text that holds it has been screened, then emit the
		 * model's chunks as they came. A segment is screened once a stream segment's worth of new text has
		 * arrived, and at the end for the rest; the last quarter of each segment (the overlap) is held back
		 * and screened again at the head of the next segment, so that a match across a chunk or segment edge
		 * is found before any of it is emitted. A match ends the stream with the refusal (or an error)
		 * after the text of the segments screened before. The answer stays progressive, a segment at a time,
		 * for one Model Armor call per segment.
		 */
		SEGMENTED

	}

}
