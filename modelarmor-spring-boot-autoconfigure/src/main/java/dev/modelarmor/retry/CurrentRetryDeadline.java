package dev.modelarmor.retry;

import java.util.Optional;

import org.springframework.retry.RetryContext;
import org.springframework.retry.support.RetrySynchronizationManager;

/**
 * Hands the deadline of the call in progress to the code that makes an attempt, so that an attempt's
 * read timeout never outlasts what is left of the deadline. The deadline rides on spring-retry's
 * {@link RetryContext}, which {@code RetryTemplate} makes current on the calling thread.
 */
public final class CurrentRetryDeadline {

	private static final String ATTRIBUTE = CurrentRetryDeadline.class.getName();

	private CurrentRetryDeadline() {
	}

	/**
	 * Attaches a deadline to a call.
	 * @param context the call's retry context
	 * @param deadline its deadline
	 */
	static void attach(RetryContext context, RetryDeadline deadline) {
		context.setAttribute(ATTRIBUTE, deadline);
	}

	/**
	 * The deadline of the retried call running on this thread.
	 * @return the deadline, or empty outside a retried call
	 */
	public static Optional<RetryDeadline> get() {
		RetryContext context = RetrySynchronizationManager.getContext();
		return (context != null && context.getAttribute(ATTRIBUTE) instanceof RetryDeadline deadline)
				? Optional.of(deadline) : Optional.empty();
	}

}
