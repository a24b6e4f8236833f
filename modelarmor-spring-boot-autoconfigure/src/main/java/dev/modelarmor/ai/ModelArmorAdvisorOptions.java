package dev.modelarmor.ai;

import java.util.Objects;

import dev.modelarmor.guard.MatchAction;

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
 */
public record ModelArmorAdvisorOptions(MatchAction onMatch, OnBlock onBlock, String refusal, int order,
		StreamMode streamMode) {

	/** The default refusal: it says that the request was declined and nothing about it. */
	public static final String DEFAULT_REFUSAL = "Sorry, I cannot help with that request.";

	/**
	 * The default order: early, before chat memory ({@code HIGHEST_PRECEDENCE + 1000}) and tool calling,
	 * so that a blocked prompt reaches neither.
	 */
	public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	/** Block with the default refusal, buffered streaming, at {@link #DEFAULT_ORDER}. */
	public static final ModelArmorAdvisorOptions DEFAULTS = new ModelArmorAdvisorOptions(MatchAction.BLOCK,
			OnBlock.REFUSE, DEFAULT_REFUSAL, DEFAULT_ORDER, StreamMode.BUFFERED);

	public ModelArmorAdvisorOptions {
		Objects.requireNonNull(onMatch, "onMatch");
		Objects.requireNonNull(onBlock, "onBlock");
		Objects.requireNonNull(refusal, "refusal");
		Objects.requireNonNull(streamMode, "streamMode");
	}

	/**
	 * These options with another match action.
	 * @param onMatch the match action
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withOnMatch(MatchAction onMatch) {
		return new ModelArmorAdvisorOptions(onMatch, this.onBlock, this.refusal, this.order, this.streamMode);
	}

	/**
	 * These options with another block behaviour.
	 * @param onBlock the block behaviour
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withOnBlock(OnBlock onBlock) {
		return new ModelArmorAdvisorOptions(this.onMatch, onBlock, this.refusal, this.order, this.streamMode);
	}

	/**
	 * These options with another stream mode.
	 * @param streamMode the stream mode
	 * @return the new options
	 */
	public ModelArmorAdvisorOptions withStreamMode(StreamMode streamMode) {
		return new ModelArmorAdvisorOptions(this.onMatch, this.onBlock, this.refusal, this.order, streamMode);
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
		PER_CHUNK

	}

}
