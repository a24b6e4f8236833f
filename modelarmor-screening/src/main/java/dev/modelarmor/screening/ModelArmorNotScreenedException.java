package dev.modelarmor.screening;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * A {@code @ModelArmorGuarded} call was blocked because screening could not complete: Model Armor was
 * unreachable after the retries, or not every filter ran. Thrown unless
 * {@code modelarmor.screening.fail-open=true}. Its {@link #outcome()} is {@link CallOutcome#NOT_SCREENED}.
 */
public class ModelArmorNotScreenedException extends ModelArmorException {

	private final Phase phase;

	/**
	 * Creates an exception.
	 * @param phase which side could not be screened
	 * @param reason why, without any content
	 * @param attempts the HTTP attempts made, or 0 when Model Armor answered
	 * @param cause the failure of the screening call, if any
	 */
	public ModelArmorNotScreenedException(Phase phase, String reason, int attempts, @Nullable Throwable cause) {
		super("Model Armor could not screen the " + phase.name().toLowerCase(java.util.Locale.ROOT) + " (" + reason
				+ "); the call is blocked. Set modelarmor.screening.fail-open=true to let such calls through", attempts,
				cause, CallOutcome.NOT_SCREENED);
		this.phase = phase;
	}

	/**
	 * Which side could not be screened.
	 * @return the phase
	 */
	public Phase phase() {
		return this.phase;
	}

}
