package dev.modelarmor.gateway.internal;

/**
 * Why the filter answers in place of the model, with the HTTP status it answers with.
 */
enum Failure {

	/** Model Armor refused the prompt: a filter matched, or it refused the text itself. */
	PROMPT_REFUSED(400),

	/** The request is not the route's API: not JSON, not the API's shape, a duplicate property. */
	INVALID_REQUEST(400),

	/** The request is larger than the filter reads. */
	REQUEST_TOO_LARGE(413),

	/** The request's body is compressed, which the filter cannot screen. */
	UNSUPPORTED_ENCODING(415),

	/** The model's answer could not be screened: not the API's JSON, compressed, or too large. */
	BAD_ANSWER(502),

	/** Model Armor could not screen and the route fails closed. */
	NOT_SCREENED(503);

	private final int status;

	Failure(int status) {
		this.status = status;
	}

	int status() {
		return this.status;
	}

}
