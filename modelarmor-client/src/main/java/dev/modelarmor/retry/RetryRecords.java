package dev.modelarmor.retry;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.context.RetryContextSupport;

/**
 * What the retry strategy records of one call, in typed fields: the call's deadline, why it stopped
 * retrying, how long it waited, and what the budget knows of it. spring-retry hands its
 * {@link BackOffPolicy}, its {@link RetryPolicy} and the attempt's callback one per-call object only, the
 * {@link RetryContext}; so the starter's retry policies open a context that carries these records
 * ({@link CallContext}, as spring-retry's own {@code TimeoutRetryPolicy} opens a context of its own type),
 * and {@link #of} is the one way to them. Everything here is read back by
 * {@link ModelArmorRetryTemplates#execute} and handed on as parameters ({@link ModelArmorRetryTemplates.Attempt})
 * and return values; nothing outside this package reads the context.
 */
final class RetryRecords {

	/** Where the records of a call whose context another retry policy opened are kept. */
	private static final String OF_ANOTHER_POLICY = RetryRecords.class.getName();

	private @Nullable RetryDeadline deadline;

	private @Nullable CallOutcome stop;

	private Duration backoff = Duration.ZERO;

	private CallLog.@Nullable Call call;

	private String location = RetryBudget.NO_LOCATION;

	private boolean counted;

	private boolean answered;

	private boolean budgetRefused;

	/**
	 * The records of the call a context belongs to: the context itself when one of the starter's policies
	 * opened it, else records kept once on a context that a customizer's policy opened.
	 * @param context the call's context
	 * @return its records
	 */
	static RetryRecords of(RetryContext context) {
		if (context instanceof CallContext call) {
			return call.records;
		}
		if (context.getAttribute(OF_ANOTHER_POLICY) instanceof RetryRecords records) {
			return records;
		}
		RetryRecords records = new RetryRecords();
		context.setAttribute(OF_ANOTHER_POLICY, records);
		return records;
	}

	/** The call's deadline starts: the back-off policy's timeline began. */
	static void started(RetryContext context, RetryDeadline deadline) {
		of(context).deadline = deadline;
	}

	/** Names the call in its log lines; set before the first attempt's failure is logged. */
	static void named(RetryContext context, CallLog.Call call) {
		of(context).call = call;
	}

	/**
	 * The call as its log lines name it: as {@link #named} it, or, for a template run outside
	 * {@link ModelArmorRetryTemplates#execute}, with an id of its own made at the first line.
	 */
	static CallLog.Call call(RetryContext context) {
		RetryRecords records = of(context);
		CallLog.Call call = records.call;
		if (call == null) {
			call = CallLog.Call.start(null, null);
			records.call = call;
		}
		return call;
	}

	/** Names the location the call's attempts go to, for the budget; set before the first attempt. */
	static void located(RetryContext context, String location) {
		of(context).location = location;
	}

	/** The location the call's attempts go to, or {@link RetryBudget#NO_LOCATION}. */
	static String location(RetryContext context) {
		return of(context).location;
	}

	/** Whether the call was counted by the budget, marking it counted. */
	static boolean countedOnce(RetryContext context) {
		RetryRecords records = of(context);
		if (records.counted) {
			return false;
		}
		records.counted = true;
		return true;
	}

	/** The call's last attempt answered: the call ends with its answer. */
	static void answered(RetryContext context) {
		of(context).answered = true;
	}

	static boolean isAnswered(RetryContext context) {
		return of(context).answered;
	}

	/** Whether the budget refused the retry of the last failure. */
	static void budgetRefused(RetryContext context, boolean refused) {
		of(context).budgetRefused = refused;
	}

	static boolean isBudgetRefused(RetryContext context) {
		return of(context).budgetRefused;
	}

	static void stopped(RetryContext context, CallOutcome why) {
		of(context).stop = why;
	}

	/** Adds a wait that was slept; every one fitted before the deadline, so the sum stays below it. */
	static void waited(RetryContext context, Duration wait) {
		RetryRecords records = of(context);
		records.backoff = records.backoff.plus(wait);
	}

	/** The call's deadline, or {@code null} when the template's back-off policy is not the starter's. */
	static @Nullable RetryDeadline deadline(RetryContext context) {
		return of(context).deadline;
	}

	/**
	 * The outcome of a call whose last attempt failed: why retrying stopped, or
	 * {@link CallOutcome#NON_RETRYABLE} when the failure was not retryable.
	 */
	static CallOutcome failureOutcome(RetryContext context) {
		CallOutcome stop = of(context).stop;
		return (stop != null) ? stop : CallOutcome.NON_RETRYABLE;
	}

	/** The time a call spent waiting between attempts so far. */
	static Duration backoff(RetryContext context) {
		return of(context).backoff;
	}

	/** The context the starter's retry policies open: spring-retry's, with the call's records. */
	static final class CallContext extends RetryContextSupport {

		private final RetryRecords records = new RetryRecords();

		CallContext(@Nullable RetryContext parent) {
			super(parent);
		}

	}

}
