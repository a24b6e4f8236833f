package dev.modelarmor.client;

import org.jspecify.annotations.Nullable;

/**
 * A Model Armor call that did not produce a result: the service could not be reached, answered with
 * an error, or answered with something that is not a valid result.
 *
 * <p>Messages never contain a prompt, a model response or a credential.
 */
public class ModelArmorException extends RuntimeException {

	private final int attempts;

	/**
	 * Creates an exception.
	 * @param message what went wrong, without any screened content
	 * @param attempts the HTTP attempts made for the call, counting this one
	 * @param cause the underlying failure, if any
	 */
	public ModelArmorException(String message, int attempts, @Nullable Throwable cause) {
		super(message, cause);
		this.attempts = attempts;
	}

	/**
	 * Creates an exception for a failure that made no HTTP attempt.
	 * @param message what went wrong, without any screened content
	 */
	public ModelArmorException(String message) {
		this(message, 0, null);
	}

	/**
	 * The HTTP attempts made for the call, retries included.
	 * @return the number of attempts
	 */
	public int attempts() {
		return this.attempts;
	}

}
