package dev.modelarmor.retry;

import java.time.Duration;

import org.springframework.retry.RetryContext;

/**
 * What the retry strategy writes down on a call's spring-retry {@link RetryContext}: why it stopped
 * retrying and how long it waited, for the outcome and the metrics of the call.
 */
public final class RetryRecords {

	private static final String STOP = RetryRecords.class.getName() + ".stop";

	private static final String BACKOFF = RetryRecords.class.getName() + ".backoff";

	private RetryRecords() {
	}

	static void stopped(RetryContext context, CallOutcome why) {
		context.setAttribute(STOP, why);
	}

	/** Adds a wait that was slept; every one fitted before the deadline, so the sum stays below it. */
	static void waited(RetryContext context, Duration wait) {
		context.setAttribute(BACKOFF, backoff(context).plus(wait));
	}

	/**
	 * The outcome of a call whose last attempt failed: why retrying stopped, or
	 * {@link CallOutcome#NON_RETRYABLE} when the failure was not retryable.
	 * @param context the call's retry context
	 * @return the outcome
	 */
	public static CallOutcome failureOutcome(RetryContext context) {
		return (context.getAttribute(STOP) instanceof CallOutcome why) ? why : CallOutcome.NON_RETRYABLE;
	}

	/**
	 * The outcome of a call that got its answer.
	 * @param attempts the attempts it took
	 * @return {@link CallOutcome#SUCCESS} or {@link CallOutcome#SUCCESS_AFTER_RETRY}
	 */
	public static CallOutcome successOutcome(int attempts) {
		return (attempts > 1) ? CallOutcome.SUCCESS_AFTER_RETRY : CallOutcome.SUCCESS;
	}

	/**
	 * The time a call spent waiting between attempts so far.
	 * @param context the call's retry context
	 * @return the total wait
	 */
	public static Duration backoff(RetryContext context) {
		return (context.getAttribute(BACKOFF) instanceof Duration total) ? total : Duration.ZERO;
	}

}
