package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.FailureClassifier;

import java.io.IOException;

/**
 * An attempt could not be sent because no access token was obtained in time: the token endpoint
 * stalled, failed or refused the grant. It is an {@link IOException}, so the {@link FailureClassifier}
 * retries it like any other failure of an attempt to reach Model Armor; log lines describe it as
 * {@code token unavailable (TimeoutException)} and metrics tag it {@code token_unavailable}.
 *
 * <p>Its message names what went wrong and for how long it was awaited, never a token, a key or
 * what the token endpoint answered.
 */
public final class TokenUnavailableException extends IOException {

	private static final long serialVersionUID = 1L;

	private final String reason;

	/**
	 * Creates an exception.
	 * @param message what could not be done, without secrets
	 * @param cause why: a {@link java.util.concurrent.TimeoutException} when the wait ran out, else
	 * the failure of the token request
	 */
	public TokenUnavailableException(String message, Throwable cause) {
		super(message, cause);
		this.reason = cause.getClass().getSimpleName();
	}

	/**
	 * A short description for log lines and failure events.
	 * @return for example {@code token unavailable (TimeoutException)}
	 */
	public String description() {
		return "token unavailable (" + this.reason + ")";
	}

}
