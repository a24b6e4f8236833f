package dev.modelarmor.retry.internal;

/**
 * What one failed or answered attempt says about Model Armor, decided once by {@link FailureClassifier} and
 * read alike by the retry policy, the retry budget and the circuit breaker.
 */
public enum AttemptKind {

	/** An answer from the service, whatever it says (a 200, a 400 or 413 about the caller's input, …). */
	ANSWERED,

	/** The service is not serving: HTTP 500, 502, 503, 504, or no answer at all. */
	SERVICE_FAILURE,

	/** HTTP 429: the project's quota is spent, the service is up. */
	TOO_MANY_REQUESTS,

	/** The attempt was not sent (no access token, or refused before it left). */
	NOT_SENT

}
