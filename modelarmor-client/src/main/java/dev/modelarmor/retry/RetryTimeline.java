package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One call's way through the retry strategy: how many retries it has made and its deadline. It decides
 * each wait: the {@link BackoffSchedule}'s drawn in the settings' {@link JitterMode}, raised to the server's hint when there is one, and no wait
 * at all when that wait would end past the deadline. Pure: time and randomness come from the
 * {@link RetryRuntime}.
 */
final class RetryTimeline {

	private final RetrySettings settings;

	private final RetryRuntime runtime;

	private final RetryDeadline deadline;

	private long retries;

	private @Nullable Duration previousScheduledWait;

	/**
	 * Starts a call's timeline now.
	 * @param settings the schedule and deadline
	 * @param runtime the clock and random source
	 */
	RetryTimeline(RetrySettings settings, RetryRuntime runtime) {
		this.settings = settings;
		this.runtime = runtime;
		this.deadline = RetryDeadline.startingNow(runtime.clock(), settings.deadline());
	}

	/**
	 * The call's deadline.
	 * @return the deadline
	 */
	RetryDeadline deadline() {
		return this.deadline;
	}

	/**
	 * Decides the wait before the next retry and counts the retry.
	 * @param serverHint the server's retry hint, already filtered by whether hints are honoured
	 * @return the wait, or why there is no retry
	 */
	RetryDecision next(Optional<Duration> serverHint) {
		// counted in a long and read saturated: no number of retries turns the index negative
		int retry = (int) Math.min(this.retries++, Integer.MAX_VALUE);
		Duration wait = this.settings.jitterMode()
			.delayBeforeRetry(this.settings.schedule(), retry, this.previousScheduledWait, this.runtime.random());
		this.previousScheduledWait = wait;
		boolean hintRaisedWait = serverHint.isPresent() && serverHint.get().compareTo(wait) > 0;
		if (hintRaisedWait) {
			wait = serverHint.get();
		}
		if (this.deadline.fits(wait)) {
			return new RetryDecision(wait, null);
		}
		return new RetryDecision(wait,
				hintRaisedWait ? CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE : CallOutcome.DEADLINE_EXCEEDED);
	}

	/**
	 * What the strategy decided after a failed attempt.
	 *
	 * @param delay the wait before the next attempt (or the one that did not fit)
	 * @param stop why retrying ends ({@link CallOutcome#DEADLINE_EXCEEDED} or
	 * {@link CallOutcome#RETRY_AFTER_EXCEEDS_DEADLINE}), or {@code null} to retry after {@code delay}
	 */
	record RetryDecision(Duration delay, @Nullable CallOutcome stop) {

		/**
		 * Whether to retry after {@link #delay()}.
		 * @return {@code true} to retry
		 */
		boolean retry() {
			return this.stop == null;
		}

	}

}
