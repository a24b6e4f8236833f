package dev.modelarmor.client;

import dev.modelarmor.retry.CallOutcome;

/**
 * Content larger than Model Armor screens in one request ({@link DataItem#MAX_BYTES}), refused before
 * anything is sent. Split it and screen the parts.
 */
public class ModelArmorInputTooLargeException extends ModelArmorException {

	private final long size;

	private final long limit;

	/**
	 * Creates an exception.
	 * @param what what the content is, e.g. {@code prompt}
	 * @param size its size in bytes
	 * @param limit the most Model Armor screens
	 */
	public ModelArmorInputTooLargeException(String what, long size, long limit) {
		super("The " + what + " is " + size + " bytes; Model Armor screens at most " + limit
				+ " bytes (4 MiB) per request. Split it and screen the parts", 0, null, CallOutcome.NON_RETRYABLE);
		this.size = size;
		this.limit = limit;
	}

	/**
	 * The size of the refused content.
	 * @return bytes
	 */
	public long size() {
		return this.size;
	}

	/**
	 * The most Model Armor screens in one request.
	 * @return bytes
	 */
	public long limit() {
		return this.limit;
	}

}
