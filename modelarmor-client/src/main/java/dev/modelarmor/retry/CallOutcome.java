package dev.modelarmor.retry;

import java.util.Locale;

/**
 * How a Model Armor call ended: one vocabulary for exceptions ({@code ModelArmorException.outcome()}),
 * log lines ({@code outcome=…}) and metric tags ({@link #tag()}).
 */
public enum CallOutcome {

	/** Answered on the first attempt. */
	SUCCESS,

	/** Answered after one or more retries. */
	SUCCESS_AFTER_RETRY,

	/** Failed in a way that retrying cannot mend (a 4xx, a garbled answer), or a call that is never retried. */
	NON_RETRYABLE,

	/** Retryable, but the next wait would have ended past the deadline. */
	DEADLINE_EXCEEDED,

	/** Retryable, but the server's retry hint did not fit before the deadline. */
	RETRY_AFTER_EXCEEDS_DEADLINE,

	/** A guarded call whose screening could not complete. */
	NOT_SCREENED,

	/** Retryable, but the retry budget was spent. */
	BUDGET_EXHAUSTED,

	/** The wait before a retry was cut short: the application is shutting down or the thread was interrupted. */
	INTERRUPTED,

	/** No quota permit could be had within what was left of the deadline; the attempt was not sent. */
	QUOTA_EXHAUSTED,

	/** The circuit breaker was open (Model Armor failing): the attempt was not sent. */
	CIRCUIT_OPEN;

	/**
	 * The name used in log lines and metric tags.
	 * @return e.g. {@code deadline_exceeded}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
