package dev.modelarmor.gateway.internal;

/**
 * A request or an answer that is not the route's API: refused in the API's error shape. Its message names
 * what is wrong, never the content.
 */
final class BadInput extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String reason;

	BadInput(String reason) {
		super(reason, null, false, false);
		this.reason = reason;
	}

	String reason() {
		return this.reason;
	}

}
