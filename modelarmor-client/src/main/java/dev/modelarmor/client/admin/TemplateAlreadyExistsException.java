package dev.modelarmor.client.admin;

import java.time.Duration;

import dev.modelarmor.client.ModelArmorApiException;

/**
 * A template could not be created because its id is taken. When an earlier attempt of the same call
 * failed without a clear outcome (a timeout, a reset, a gateway's 502 or 504), that attempt may have
 * created the template itself:
 * {@link #mayBeOwnEarlierAttempt()} says so, and {@code get(templateId)} tells what is there.
 */
public class TemplateAlreadyExistsException extends ModelArmorApiException {

	private final String templateId;

	private final boolean mayBeOwnEarlierAttempt;

	/**
	 * Creates an exception.
	 * @param templateId the id that is taken
	 * @param mayBeOwnEarlierAttempt whether an earlier attempt of this call may have created it
	 * @param cause the 409 answer
	 */
	public TemplateAlreadyExistsException(String templateId, boolean mayBeOwnEarlierAttempt,
			ModelArmorApiException cause) {
		super(message(templateId, mayBeOwnEarlierAttempt), cause.statusCode(), cause.status(),
				cause.retryAfter().orElse((Duration) null), cause.attempts(), cause.earlierAttemptOutcomeUnknown(), cause);
		this.templateId = templateId;
		this.mayBeOwnEarlierAttempt = mayBeOwnEarlierAttempt;
	}

	private static String message(String templateId, boolean mayBeOwnEarlierAttempt) {
		return "Template '" + templateId + "' already exists" + (mayBeOwnEarlierAttempt
				? ": an earlier attempt of this create failed without a clear outcome and may have created it; "
						+ "read it with get(\"" + templateId + "\") before creating it again"
				: "");
	}

	/**
	 * The id that is taken.
	 * @return the template id
	 */
	public String templateId() {
		return this.templateId;
	}

	/**
	 * Whether an earlier attempt of the same create failed without a clear outcome, so that the template may
	 * be the one this call asked for.
	 * @return {@code true} when the template may be this call's own
	 */
	public boolean mayBeOwnEarlierAttempt() {
		return this.mayBeOwnEarlierAttempt;
	}

}
