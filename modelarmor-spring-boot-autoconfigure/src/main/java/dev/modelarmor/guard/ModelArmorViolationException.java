package dev.modelarmor.guard;

import java.util.Set;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.SanitizationResult;

/**
 * Model Armor matched the prompt or the answer of a {@link ModelArmorGuarded} method. The message names
 * the phase and the matched filters, never the content. In a Spring MVC application it renders as an
 * HTTP 400 problem detail.
 */
public class ModelArmorViolationException extends ModelArmorException {

	private final SanitizationResult result;

	private final Phase phase;

	/**
	 * Creates an exception.
	 * @param phase which side matched
	 * @param result what Model Armor found
	 */
	public ModelArmorViolationException(Phase phase, SanitizationResult result) {
		super("Model Armor blocked the " + phase.name().toLowerCase(java.util.Locale.ROOT) + ": matched filters "
				+ result.matchedFilters(), 0, null);
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
