package dev.modelarmor.guard;

/**
 * Which side of a guarded call was screened.
 */
public enum Phase {

	/** The prompt, before the method ran. */
	PROMPT,

	/** The model's answer, after the method ran. */
	RESPONSE

}
