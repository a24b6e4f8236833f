package dev.modelarmor.retry;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A retry budget that decides by the failure rate and its duration, never by throughput, kept per location
 * (an outage in {@code europe-west4} never spends the retries of calls to {@code us-central1}).
 *
 * <p>Over the last {@link RetryBudgetSettings#window()}, each location counts its calls, its retries and
 * its failed attempts (those that could be retried: 5xx, 429, no answer). While at most
 * {@link RetryBudgetSettings#failureRateThreshold()} percent of its attempts failed, every retry is allowed:
 * Google's strategy then costs at most one retry per call (0.43 at 30 % random failures), at any rate. Once
 * more than that have failed for {@link RetryBudgetSettings#failingFor()}, the location's retries are held
 * to {@link RetryBudgetSettings#retryRatio()} of its calls plus {@link RetryBudgetSettings#minRetriesPerSecond()}
 * a second, in the manner of Finagle's {@code RetryBudget}: a sustained storm (an outage the breaker has not
 * yet seen, a spent quota answering 429 to everything) then reaches Model Armor at about
 * {@code 1 + retryRatio} times the offered load. Retries of HTTP 429 have a floor of at most
 * {@link RetryBudgetSettings#TOO_MANY_REQUESTS_RETRIES_PER_SECOND}.
 *
 * <p>The rate is judged once the window holds {@link #MINIMUM_ATTEMPTS} attempts. A random failure rate of 30 % sits
 * far below the threshold of 50 %: over a 10 s window at 20 calls/s
 * (286 attempts) the observed rate has a standard deviation of 2.7 points, so reaching 50 % is a 7-sigma
 * event, and it would still have to last 5 s. A blip of 3 s after ordinary traffic stays under it; a single
 * call's retries (at most three in any 10 s) fit the floor of a quiet location.
 *
 * <p>What the window has forgotten comes back by itself: no success is needed to refill it. Thread-safe;
 * one budget is shared by all calls of one client (both paths). The type is public because the benchmarks
 * drive budgets of their own and the starter's metrics read {@link #tokens(String)}.
 */
public final class RetryBudget {

	/**
	 * The fewest attempts whose outcome a location's window must hold before its failure rate is judged: below
	 * it (about 4 calls a second with the 10 s window) every retry is allowed, and Google's schedule alone
	 * bounds them, at most about six attempts a call.
	 */
	public static final int MINIMUM_ATTEMPTS = 50;

	/** The key of calls that name no location. */
	public static final String NO_LOCATION = "none";

	/**
	 * More locations than Google has: beyond them, calls share one window, so that no input can grow the
	 * budget without bound.
	 */
	static final int MAX_LOCATIONS = 256;

	private static final String OTHER_LOCATIONS = "other";

	private final RetryBudgetSettings settings;

	private final Clock clock;

	private final ConcurrentHashMap<String, LocationWindow> locations = new ConcurrentHashMap<>();

	private final List<Consumer<String>> locationListeners = new CopyOnWriteArrayList<>();

	/**
	 * Creates a budget with the system clock.
	 * @param settings the threshold, the ratio, the floor and the window
	 */
	public RetryBudget(RetryBudgetSettings settings) {
		this(settings, Clock.systemUTC());
	}

	/**
	 * Creates a budget.
	 * @param settings the threshold, the ratio, the floor and the window
	 * @param clock tells which seconds the window holds
	 */
	public RetryBudget(RetryBudgetSettings settings, Clock clock) {
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * A call to a location starts.
	 * @param location the location it is sent to
	 */
	public void onCall(String location) {
		window(location).onCall();
	}

	/**
	 * A call to a location ended with an answer: its last attempt succeeded.
	 * @param location the location it was sent to
	 */
	public void onSuccess(String location) {
		window(location).onSuccess();
	}

	/**
	 * An attempt failed with a failure that may be retried: counts it, then asks for one retry, and takes it
	 * when allowed.
	 * @param location the location the attempt was sent to
	 * @param tooManyRequests whether the failure is an HTTP 429 (then the floor is at most
	 * {@link RetryBudgetSettings#TOO_MANY_REQUESTS_RETRIES_PER_SECOND})
	 * @return {@code true} when the retry may start
	 */
	public boolean tryRetry(String location, boolean tooManyRequests) {
		return window(location).tryRetry(tooManyRequests);
	}

	/**
	 * The retries (of a 5xx or an I/O failure) that the ratio and the floor allow a location now, for metrics
	 * and tests; while its failure rate is under the threshold, its retries are not held to them.
	 * @param location the location
	 * @return the retries left, never negative
	 */
	public double tokens(String location) {
		LocationWindow window = this.locations.get(location);
		return (window != null) ? window.tokens() : this.settings.minRetriesPerSecond() * (double) seconds();
	}

	/**
	 * Whether a location's retries are held to the ratio and the floor now (its failure rate has been above
	 * the threshold for {@code failingFor}).
	 * @param location the location
	 * @return {@code true} while they are
	 */
	public boolean isLimiting(String location) {
		LocationWindow window = this.locations.get(location);
		return window != null && window.isLimiting();
	}

	/**
	 * The locations the budget has seen calls to.
	 * @return their names
	 */
	public Set<String> locations() {
		return Set.copyOf(this.locations.keySet());
	}

	/**
	 * Forgets every call and retry of every location, as after a quiet window: for a test kit that runs tests
	 * one after another on one client, so that one test's outage does not stop the next test's retries.
	 */
	public void reset() {
		this.locations.values().forEach(LocationWindow::reset);
	}

	/**
	 * Tells a listener of each location the budget counts from now on, and of those it counts already: for
	 * meters that follow every location.
	 * @param listener told the location's name
	 */
	public void onLocation(Consumer<String> listener) {
		this.locationListeners.add(listener);
		this.locations.keySet().forEach(listener);
	}

	private LocationWindow window(String location) {
		LocationWindow window = this.locations.get(location);
		if (window != null) {
			return window;
		}
		String key = (this.locations.size() < MAX_LOCATIONS) ? location : OTHER_LOCATIONS;
		boolean[] created = { false };
		window = this.locations.computeIfAbsent(key, (name) -> {
			created[0] = true;
			return new LocationWindow();
		});
		if (created[0]) {
			for (Consumer<String> listener : this.locationListeners) {
				listener.accept(key);
			}
		}
		return window;
	}

	private int seconds() {
		return (int) this.settings.window().toSeconds();
	}

	/** One location's window: per second, in a ring, the second it holds, its calls, retries and failures. */
	private final class LocationWindow {

		private final int seconds = seconds();

		private final long[] second = new long[this.seconds];

		private final long[] calls = new long[this.seconds];

		private final long[] retries = new long[this.seconds];

		private final long[] failures = new long[this.seconds];

		private final long[] successes = new long[this.seconds];

		/** When the failure rate went above the threshold, or {@link Long#MIN_VALUE} while it is not above it. */
		private long aboveSince = Long.MIN_VALUE;

		/** When the failure rate was last seen above the threshold. */
		private long lastAbove = Long.MIN_VALUE;

		LocationWindow() {
			Arrays.fill(this.second, Long.MIN_VALUE);
		}

		synchronized void onCall() {
			this.calls[slot()]++;
		}

		synchronized void onSuccess() {
			this.successes[slot()]++;
		}

		synchronized boolean tryRetry(boolean tooManyRequests) {
			int slot = slot();
			this.failures[slot]++;
			long now = RetryBudget.this.clock.millis();
			if (!limiting(now)) {
				this.retries[slot]++;
				return true;
			}
			int floor = tooManyRequests
					? Math.min(RetryBudget.this.settings.minRetriesPerSecond(),
							RetryBudgetSettings.TOO_MANY_REQUESTS_RETRIES_PER_SECOND)
					: RetryBudget.this.settings.minRetriesPerSecond();
			if (left(floor) < 1) {
				return false;
			}
			this.retries[slot]++;
			return true;
		}

		synchronized double tokens() {
			slot();
			return Math.max(0, left(RetryBudget.this.settings.minRetriesPerSecond()));
		}

		synchronized boolean isLimiting() {
			slot();
			long now = RetryBudget.this.clock.millis();
			return this.aboveSince != Long.MIN_VALUE && aboveThreshold()
					&& now - this.aboveSince >= RetryBudget.this.settings.failingFor().toMillis();
		}

		/** Whether the failure rate is above the threshold, and has been for {@code failingFor}. */
		private boolean limiting(long now) {
			if (!aboveThreshold()) {
				this.aboveSince = Long.MIN_VALUE;
				return false;
			}
			// above it again after the window forgot the last time: a new episode
			if (this.aboveSince == Long.MIN_VALUE || now - this.lastAbove > this.seconds * 1000L) {
				this.aboveSince = now;
			}
			this.lastAbove = now;
			return now - this.aboveSince >= RetryBudget.this.settings.failingFor().toMillis();
		}

		/**
		 * More than the threshold's share of the attempts that ended in the window failed, each counted when
		 * its outcome is known (a failure when it is asked to be retried, a success when its call ends with
		 * the answer), the window holding at least {@link #MINIMUM_ATTEMPTS}; a threshold of zero judges every
		 * failure.
		 */
		private boolean aboveThreshold() {
			long failed = 0;
			long succeeded = 0;
			for (int i = 0; i < this.seconds; i++) {
				failed += this.failures[i];
				succeeded += this.successes[i];
			}
			float threshold = RetryBudget.this.settings.failureRateThreshold();
			if (threshold == 0) {
				return failed > 0;
			}
			return failed + succeeded >= MINIMUM_ATTEMPTS && failed * 100.0 > threshold * (failed + succeeded);
		}

		private double left(int floorPerSecond) {
			long callsInWindow = 0;
			long retriesInWindow = 0;
			for (int i = 0; i < this.seconds; i++) {
				callsInWindow += this.calls[i];
				retriesInWindow += this.retries[i];
			}
			return (double) floorPerSecond * this.seconds + RetryBudget.this.settings.retryRatio() * callsInWindow
					- retriesInWindow;
		}

		synchronized void reset() {
			Arrays.fill(this.second, Long.MIN_VALUE);
			Arrays.fill(this.calls, 0);
			Arrays.fill(this.retries, 0);
			Arrays.fill(this.failures, 0);
			Arrays.fill(this.successes, 0);
			this.aboveSince = Long.MIN_VALUE;
			this.lastAbove = Long.MIN_VALUE;
		}

		/** The current second's slot, emptying the slots the window has left behind. */
		private int slot() {
			long now = Math.floorDiv(RetryBudget.this.clock.millis(), 1000);
			for (int i = 0; i < this.seconds; i++) {
				if (this.second[i] <= now - this.seconds) {
					this.second[i] = Long.MIN_VALUE;
					this.calls[i] = 0;
					this.retries[i] = 0;
					this.failures[i] = 0;
					this.successes[i] = 0;
				}
			}
			int slot = (int) Math.floorMod(now, (long) this.seconds);
			if (this.second[slot] != now) {
				this.second[slot] = now;
				this.calls[slot] = 0;
				this.retries[slot] = 0;
				this.failures[slot] = 0;
				this.successes[slot] = 0;
			}
			return slot;
		}

	}

}
