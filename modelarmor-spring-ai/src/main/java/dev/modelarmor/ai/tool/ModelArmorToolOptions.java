package dev.modelarmor.ai.tool;

import java.util.Objects;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;

/**
 * How a {@link ModelArmorToolScreener} acts on tool calls and their results. Free of Spring AI types, so
 * that it can be bound from configuration properties.
 *
 * @param onMatch what a match does: block, go on with de-identified text (a tool's result only: its
 * arguments are JSON that de-identified text could break, so a match there blocks), or log and go on
 * @param onBlock what a blocked tool call or result does: the {@code refusal} as the tool's result, or an
 * exception that fails the whole call
 * @param refusal what the model reads as the tool's result when it was blocked with
 * {@link OnBlockedTool#REFUSE}; it must not name anything of the content
 */
public record ModelArmorToolOptions(MatchAction onMatch, OnBlockedTool onBlock, String refusal) {

	/**
	 * The default refusal: it tells the model that the tool gave nothing it may use, and nothing about
	 * why.
	 */
	public static final String DEFAULT_REFUSAL = "The tool call was blocked by a content safety check and returned no result.";

	/** Block, with the default refusal as the tool's result. */
	public static final ModelArmorToolOptions DEFAULTS = new ModelArmorToolOptions(MatchAction.BLOCK,
			OnBlockedTool.REFUSE, DEFAULT_REFUSAL);

	public ModelArmorToolOptions {
		Objects.requireNonNull(onMatch, "onMatch");
		Objects.requireNonNull(onBlock, "onBlock");
		Objects.requireNonNull(refusal, "refusal");
	}

	/**
	 * What a blocked tool call or result does: blocked are a match with a blocking match action, text that
	 * Model Armor refused (too large), and screening that could not complete while
	 * {@code modelarmor.screening.fail-open} is off.
	 */
	public enum OnBlockedTool {

		/**
		 * The tool's result is the refusal, which the model reads and can answer from: blocked arguments
		 * mean the tool does not run; a blocked result is never shown to the model.
		 */
		REFUSE,

		/**
		 * Throw {@code ModelArmorViolationException} (a match), {@code ModelArmorNotScreenedException}
		 * (screening could not complete) or {@code ModelArmorInputRejectedException} (Model Armor refused
		 * the text): the tool does not run, or its result is dropped, and the whole chat call fails.
		 */
		THROW

	}

}
