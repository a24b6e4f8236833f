package dev.modelarmor.screening;


/**
 * What a {@code @ModelArmorGuarded} method does when Model Armor finds a match.
 */
public enum MatchAction {

	/** Throw {@link ModelArmorViolationException}: before the body runs for a prompt, after it for an answer. */
	BLOCK,

	/**
	 * Go on with Sensitive Data Protection's de-identified text (the argument, or the returned value) when
	 * SDP is the only matched filter and de-identified text came back; otherwise block.
	 */
	DEIDENTIFY,

	/** Go on unchanged; the match is logged with filter names only. */
	LOG_ONLY

}
