package dev.modelarmor.screening;

import java.util.Set;

import dev.modelarmor.client.SanitizationResult;

/**
 * Model Armor matched the prompt or the answer of a {@code @ModelArmorGuarded} method. The message names
 * the phase and the matched filters, never the content. In a Spring MVC application it renders as an
 * HTTP 400 problem detail.
 *
 * <p>A policy verdict, not a failure: it is not a {@link dev.modelarmor.client.ModelArmorException} (which
 * means Model Armor gave no usable result), so code that catches outages does not swallow blocks.
 */
public class ModelArmorViolationException extends RuntimeException {

	private final SanitizationResult result;

	private final Phase phase;

	/**
	 * Creates an exception.
	 * @param phase which side matched
	 * @param result what Model Armor found
	 */
	public ModelArmorViolationException(Phase phase, SanitizationResult result) {
		super("Model Armor blocked the " + phase.name().toLowerCase(java.util.Locale.ROOT) + ": matched filters "
				+ result.matchedFilters());
		this.phase = phase;
		this.result = result;
	}

	/**
	 * What Model Armor found.
	 * @return the sanitization result
	 */
	public SanitizationResult result() {
		return this.result;
	}

	/**
	 * Which side matched.
	 * @return the phase
	 */
	public Phase phase() {
		return this.phase;
	}

	/**
	 * The filters that matched, e.g. {@code pi_and_jailbreak}.
	 * @return the matched filter names
	 */
	public Set<String> matchedFilters() {
		return this.result.matchedFilters();
	}

}
