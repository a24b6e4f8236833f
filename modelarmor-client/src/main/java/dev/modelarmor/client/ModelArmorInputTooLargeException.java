package dev.modelarmor.client;

import dev.modelarmor.retry.CallOutcome;

/**
 * Content larger than Model Armor screens in one request ({@link DataItem#MAX_BYTES}), or text longer than
 * a {@code ModelArmorScreening} screens in its most windows, refused before anything is sent.
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
	 * Creates an exception with its own message, for content refused by a limit other than one
	 * request's, such as the most windows of a {@code ModelArmorScreening}.
	 * @param size its size in bytes
	 * @param limit how much of it the limit lets through, in bytes
	 * @param message what was refused and what to change, without any of the content
	 */
	public ModelArmorInputTooLargeException(long size, long limit, String message) {
		super(message, 0, null, CallOutcome.NON_RETRYABLE);
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
	 * The most Model Armor screens in one request or, for text refused by a {@code ModelArmorScreening},
	 * how much of this text its most windows reach.
	 * @return bytes
	 */
	public long limit() {
		return this.limit;
	}

}
