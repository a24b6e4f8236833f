package dev.modelarmor.autoconfigure;

/**
 * What a {@code modelarmor.*} key that no property of the starter has does at startup.
 */
public enum UnknownPropertiesAction {

	/**
	 * The start fails, naming each unknown key with the nearest property.
	 */
	FAIL,

	/**
	 * One WARN line for each unknown key; the start goes on.
	 */
	WARN,

	/**
	 * Unknown keys are ignored.
	 */
	IGNORE

}
