package dev.modelarmor.screening;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * A {@code @ModelArmorGuarded} call (or a Spring AI advisor's) was blocked because Model Armor refused the
 * text itself: larger than it screens in one request
 * ({@link dev.modelarmor.client.ModelArmorInputTooLargeException}), or answered HTTP 400 or 413. That is
 * input the caller controls, not an outage, so it is blocked whatever {@code modelarmor.screening.fail-open}
 * says: fail-open would otherwise let anyone skip screening by sending a large enough prompt.
 *
 * <p>Not a {@link dev.modelarmor.client.ModelArmorException}: code that catches outages does not catch
 * it. The message names the phase and the reason, never the content. In a Spring MVC application it
 * renders as an HTTP 413 problem detail when the text was too large, 400 otherwise.
 */
public class ModelArmorInputRejectedException extends RuntimeException {

	private final Phase phase;

	private final String reason;

	private final boolean tooLarge;

	/**
	 * Creates an exception.
	 * @param phase which side was refused
	 * @param reason why, without any content, e.g. {@code HTTP 400}
	 * @param tooLarge whether the text was larger than Model Armor screens
	 * @param cause the failure of the screening call, if any
	 */
	public ModelArmorInputRejectedException(Phase phase, String reason, boolean tooLarge, @Nullable Throwable cause) {
		super(message(phase, reason, tooLarge, cause), cause);
		this.phase = phase;
		this.reason = reason;
		this.tooLarge = tooLarge;
	}

	private static String message(Phase phase, String reason, boolean tooLarge, @Nullable Throwable cause) {
		String what = phase.name().toLowerCase(Locale.ROOT);
		if (cause instanceof ModelArmorUnknownTenantException) {
			// nothing reached Model Armor: saying it refused would send an operator to the wrong place
			return "The " + what + " was refused before screening, nothing was sent to Model Armor (" + reason
					+ "); the call is blocked whatever modelarmor.screening.fail-open says. "
					+ "Declare the tenant under modelarmor.tenants, or send a declared one";
		}
		return "Model Armor refused to screen the " + what + " (" + reason
				+ "); the call is blocked whatever modelarmor.screening.fail-open says. "
				+ (tooLarge ? "Send shorter text" : "Correct the text sent");
	}

	/**
	 * Which side was refused.
	 * @return the phase
	 */
	public Phase phase() {
		return this.phase;
	}

	/**
	 * Why Model Armor refused the text, without any of it.
	 * @return e.g. {@code HTTP 400} or {@code 5000000 bytes, over the limit of 4194304}
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * Whether the text was larger than Model Armor screens (before anything was sent, or answered HTTP
	 * 413).
	 * @return {@code true} for text that was too large
	 */
	public boolean tooLarge() {
		return this.tooLarge;
	}

}
