package dev.modelarmor.retry;

import java.time.Clock;

/**
 * A retry budget proportional to traffic, in the manner of Finagle's {@code RetryBudget}: over the last
 * {@link RetryBudgetSettings#window()}, a client's retries may be {@link RetryBudgetSettings#retryRatio()} of
 * its calls plus {@link RetryBudgetSettings#minRetriesPerSecond()} a second. Every call counts when it starts;
 * every retry is asked for, once, when its attempt has failed. What the window has forgotten comes back by
 * itself: no success is needed to refill it, so a quiet application that met an outage retries its next
 * call as the strategy says.
 *
 * <p>It engages on sustained, broad failure only: one call's retries (at most about seven within a 60 s
 * deadline) and a blip's are far inside it, while a storm of failures that retries would multiply (a spent
 * quota answering 429 to everything, an outage the breaker has not yet seen) is held to about
 * {@code 1 + retryRatio} times the offered load. Retries of HTTP 429 have a floor of at most
 * {@link RetryBudgetSettings#TOO_MANY_REQUESTS_RETRIES_PER_SECOND}.
 *
 * <p>Thread-safe; one budget is shared by all calls of one client (both paths). The type is public because
 * the benchmarks drive budgets of their own and the starter's metrics read {@link #tokens()}.
 */
public final class RetryBudget {

	private final double retryRatio;

	private final int minRetriesPerSecond;

	private final int seconds;

	private final Clock clock;

	/** Per second of the window, in a ring: the second it holds, its calls and its retries. */
	private final long[] second;

	private final long[] calls;

	private final long[] retries;

	/**
	 * Creates a budget with the system clock.
	 * @param settings the ratio, the floor and the window
	 */
	public RetryBudget(RetryBudgetSettings settings) {
		this(settings, Clock.systemUTC());
	}

	/**
	 * Creates a budget.
	 * @param settings the ratio, the floor and the window
	 * @param clock tells which seconds the window holds
	 */
	public RetryBudget(RetryBudgetSettings settings, Clock clock) {
		this.retryRatio = settings.retryRatio();
		this.minRetriesPerSecond = settings.minRetriesPerSecond();
		this.seconds = (int) settings.window().toSeconds();
		this.clock = clock;
		this.second = new long[this.seconds];
		this.calls = new long[this.seconds];
		this.retries = new long[this.seconds];
		java.util.Arrays.fill(this.second, Long.MIN_VALUE);
	}

	/**
	 * A call starts: it adds {@code retryRatio} to what retries may spend.
	 */
	public synchronized void onCall() {
		this.calls[slot()]++;
	}

	/**
	 * Asks for one retry, and takes it when allowed.
	 * @param tooManyRequests whether the failure to retry is an HTTP 429 (then the floor is at most
	 * {@link RetryBudgetSettings#TOO_MANY_REQUESTS_RETRIES_PER_SECOND})
	 * @return {@code true} when the retry may start
	 */
	public synchronized boolean tryRetry(boolean tooManyRequests) {
		int slot = slot();
		int floor = tooManyRequests
				? Math.min(this.minRetriesPerSecond, RetryBudgetSettings.TOO_MANY_REQUESTS_RETRIES_PER_SECOND)
				: this.minRetriesPerSecond;
		if (left(floor) < 1) {
			return false;
		}
		this.retries[slot]++;
		return true;
	}

	/**
	 * The retries (of a 5xx or an I/O failure) the budget allows now, for metrics and tests.
	 * @return the retries left, never negative
	 */
	public synchronized double tokens() {
		slot();
		return Math.max(0, left(this.minRetriesPerSecond));
	}

	/**
	 * Forgets every call and retry, as after a quiet window: for a test kit that runs tests one after another
	 * on one client, so that one test's outage does not stop the next test's retries.
	 */
	public synchronized void reset() {
		java.util.Arrays.fill(this.second, Long.MIN_VALUE);
		java.util.Arrays.fill(this.calls, 0);
		java.util.Arrays.fill(this.retries, 0);
	}

	private double left(int floorPerSecond) {
		long callsInWindow = 0;
		long retriesInWindow = 0;
		for (int i = 0; i < this.seconds; i++) {
			callsInWindow += this.calls[i];
			retriesInWindow += this.retries[i];
		}
		return (double) floorPerSecond * this.seconds + this.retryRatio * callsInWindow - retriesInWindow;
	}

	/** The current second's slot, emptying the slots the window has left behind. */
	private int slot() {
		long now = Math.floorDiv(this.clock.millis(), 1000);
		for (int i = 0; i < this.seconds; i++) {
			if (this.second[i] <= now - this.seconds) {
				this.second[i] = Long.MIN_VALUE;
				this.calls[i] = 0;
				this.retries[i] = 0;
			}
		}
		int slot = (int) Math.floorMod(now, (long) this.seconds);
		if (this.second[slot] != now) {
			this.second[slot] = now;
			this.calls[slot] = 0;
			this.retries[slot] = 0;
		}
		return slot;
	}

}
