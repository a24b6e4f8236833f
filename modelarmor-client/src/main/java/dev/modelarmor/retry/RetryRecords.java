package dev.modelarmor.retry;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * What the retry strategy writes down on a call's spring-retry {@link RetryContext}: the call's deadline,
 * why it stopped retrying and how long it waited. The one place where the strategy keeps values on the
 * context, because spring-retry gives its {@link BackOffPolicy} and {@link RetryPolicy} no other way to
 * hand a value to the callback or to the end of the call: both only see the context. Everything here
 * is read back by {@link ModelArmorRetryTemplates#execute} and handed on as parameters and return
 * values; nothing outside this package reads the context.
 */
final class RetryRecords {

	private static final String DEADLINE = RetryRecords.class.getName() + ".deadline";

	private static final String STOP = RetryRecords.class.getName() + ".stop";

	private static final String BACKOFF = RetryRecords.class.getName() + ".backoff";

	private static final String CALL = RetryRecords.class.getName() + ".call";

	private static final String LOCATION = RetryRecords.class.getName() + ".location";

	private static final String COUNTED = RetryRecords.class.getName() + ".counted";

	private static final String ANSWERED = RetryRecords.class.getName() + ".answered";

	private RetryRecords() {
	}

	static void started(RetryContext context, RetryDeadline deadline) {
		context.setAttribute(DEADLINE, deadline);
	}

	/** Names the call in its log lines; set before the first attempt's failure is logged. */
	static void named(RetryContext context, CallLog.Call call) {
		context.setAttribute(CALL, call);
	}

	/**
	 * The call as its log lines name it: as {@link #named} it, or, for a template run outside
	 * {@link ModelArmorRetryTemplates#execute}, with an id of its own made at the first line.
	 */
	static CallLog.Call call(RetryContext context) {
		if (context.getAttribute(CALL) instanceof CallLog.Call call) {
			return call;
		}
		CallLog.Call call = CallLog.Call.start(null, null);
		context.setAttribute(CALL, call);
		return call;
	}

	/** Names the location the call's attempts go to, for the budget; set before the first attempt. */
	static void located(RetryContext context, String location) {
		context.setAttribute(LOCATION, location);
	}

	/** The location the call's attempts go to, or {@link RetryBudget#NO_LOCATION}. */
	static String location(RetryContext context) {
		return (context.getAttribute(LOCATION) instanceof String location) ? location : RetryBudget.NO_LOCATION;
	}

	/** Whether the call was counted by the budget, marking it counted. */
	static boolean countedOnce(RetryContext context) {
		if (context.getAttribute(COUNTED) != null) {
			return false;
		}
		context.setAttribute(COUNTED, Boolean.TRUE);
		return true;
	}

	/** The call's last attempt answered: the call ends with its answer. */
	static void answered(RetryContext context) {
		context.setAttribute(ANSWERED, Boolean.TRUE);
	}

	static boolean isAnswered(RetryContext context) {
		return context.getAttribute(ANSWERED) != null;
	}

	static void stopped(RetryContext context, CallOutcome why) {
		context.setAttribute(STOP, why);
	}

	/** Adds a wait that was slept; every one fitted before the deadline, so the sum stays below it. */
	static void waited(RetryContext context, Duration wait) {
		context.setAttribute(BACKOFF, backoff(context).plus(wait));
	}

	/** The call's deadline, or {@code null} when the template's back-off policy is not the starter's. */
	static @Nullable RetryDeadline deadline(RetryContext context) {
		return (context.getAttribute(DEADLINE) instanceof RetryDeadline deadline) ? deadline : null;
	}

	/**
	 * The outcome of a call whose last attempt failed: why retrying stopped, or
	 * {@link CallOutcome#NON_RETRYABLE} when the failure was not retryable.
	 */
	static CallOutcome failureOutcome(RetryContext context) {
		return (context.getAttribute(STOP) instanceof CallOutcome why) ? why : CallOutcome.NON_RETRYABLE;
	}

	/** The time a call spent waiting between attempts so far. */
	static Duration backoff(RetryContext context) {
		return (context.getAttribute(BACKOFF) instanceof Duration total) ? total : Duration.ZERO;
	}

}
