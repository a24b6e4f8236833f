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

	/**
	 * Why a call ended so, in words, for the one log line of a call that failed and for its exception.
	 * @return e.g. {@code the next retry would have ended past the call's deadline}
	 */
	public String reason() {
		return switch (this) {
			case SUCCESS -> "answered";
			case SUCCESS_AFTER_RETRY -> "answered after retries";
			case NON_RETRYABLE -> "the failure is not one that a retry can mend";
			case DEADLINE_EXCEEDED -> "the next retry would have ended past the call's deadline";
			case RETRY_AFTER_EXCEEDS_DEADLINE -> "the server asked to wait past the call's deadline";
			case NOT_SCREENED -> "the screening could not complete";
			case BUDGET_EXHAUSTED -> "no retry: this client's retries over the last seconds reached the retry budget "
					+ "(modelarmor.retry.budget.*), which only a sustained storm of failures spends";
			case INTERRUPTED -> "the wait before a retry was cut short (shutdown or interrupt)";
			case QUOTA_EXHAUSTED -> "not sent: no quota permit came within the deadline (and modelarmor.quota.max-wait when set)";
			case CIRCUIT_OPEN -> "not sent: the circuit breaker is open, most recent calls to Model Armor failed "
					+ "(modelarmor.circuit-breaker.*)";
		};
	}

}
