package dev.modelarmor.ai.document;

import java.util.Objects;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;

/**
 * How a {@link ModelArmorDocumentScreener} acts on retrieved documents. Free of Spring AI types, so that
 * it can be bound from configuration properties.
 *
 * @param onMatch what a match does: block the document, go on with its de-identified text, or log and
 * go on
 * @param onBlock what a blocked document does: drop it from the context, or fail the whole call
 */
public record ModelArmorDocumentOptions(MatchAction onMatch, OnBlockedDocument onBlock) {

	/** Block matching documents and drop them from the context. */
	public static final ModelArmorDocumentOptions DEFAULTS = new ModelArmorDocumentOptions(MatchAction.BLOCK,
			OnBlockedDocument.DROP);

	public ModelArmorDocumentOptions {
		Objects.requireNonNull(onMatch, "onMatch");
		Objects.requireNonNull(onBlock, "onBlock");
	}

	/**
	 * What becomes of a document that is blocked: one that matched with a blocking match action, that
	 * Model Armor refused (too large), or that could not be screened while
	 * {@code modelarmor.screening.fail-open} is off.
	 */
	public enum OnBlockedDocument {

		/**
		 * Drop the document from the context; the model answers from the others. The answer's context says
		 * how many were dropped and by which filters.
		 */
		DROP,

		/**
		 * Fail the whole call with {@code ModelArmorViolationException} (a match),
		 * {@code ModelArmorNotScreenedException} (screening could not complete) or
		 * {@code ModelArmorInputRejectedException} (Model Armor refused the text).
		 */
		THROW

	}

}
