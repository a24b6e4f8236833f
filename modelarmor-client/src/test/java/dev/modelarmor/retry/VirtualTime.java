package dev.modelarmor.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

import org.springframework.retry.backoff.Sleeper;

/**
 * Virtual time for retry tests: a {@link Clock} that only moves when told to, and a spring-retry
 * {@link Sleeper} that, instead of waiting, moves that clock forward and records the wait. Retry
 * arithmetic (schedules, deadlines, server hints) can so be tested without any real waiting.
 *
 * <pre>{@code
 * VirtualTime time = new VirtualTime();
 * RetryTemplate template = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS,
 *         time.runtime(new SplittableRandom(42)));
 * template.execute(context -> {
 *     time.advance(Duration.ofMillis(300)); // a slow attempt
 *     return call();
 * });
 * assertThat(time.sleeps()).hasSize(...);
 * }</pre>
 *
 * <p>Instances are safe to share between threads, but tests normally keep one per test.
 */
public class VirtualTime extends Clock implements Sleeper {

	/** Where a new instance starts when no start is given: an arbitrary, fixed instant. */
	public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

	private final Object lock = new Object();

	private final List<Duration> sleeps = new ArrayList<>();

	private Instant now;

	/** Creates virtual time starting at {@link #DEFAULT_START}. */
	public VirtualTime() {
		this(DEFAULT_START);
	}

	/**
	 * Creates virtual time starting at the given instant.
	 * @param start the initial time
	 */
	public VirtualTime(Instant start) {
		this.now = Objects.requireNonNull(start, "start");
	}

	/**
	 * Moves the clock forward without recording a wait, for example to simulate a slow attempt.
	 * @param elapsed how much time passes; must not be negative
	 * @return this instance
	 */
	public VirtualTime advance(Duration elapsed) {
		if (elapsed.isNegative()) {
			throw new IllegalArgumentException("time cannot go backwards: " + elapsed);
		}
		synchronized (this.lock) {
			this.now = this.now.plus(elapsed);
		}
		return this;
	}

	/**
	 * Records a wait and moves the clock forward by it; returns at once.
	 * @param backOffPeriod the wait in milliseconds; must not be negative
	 */
	@Override
	public void sleep(long backOffPeriod) {
		if (backOffPeriod < 0) {
			throw new IllegalArgumentException("negative sleep: " + backOffPeriod);
		}
		Duration wait = Duration.ofMillis(backOffPeriod);
		synchronized (this.lock) {
			this.sleeps.add(wait);
			this.now = this.now.plus(wait);
		}
	}

	/**
	 * The waits recorded by {@link #sleep(long)}, oldest first.
	 * @return an immutable copy of the waits
	 */
	public List<Duration> sleeps() {
		synchronized (this.lock) {
			return List.copyOf(this.sleeps);
		}
	}

	/**
	 * The sum of the recorded waits.
	 * @return the total time slept
	 */
	public Duration totalSlept() {
		return sleeps().stream().reduce(Duration.ZERO, Duration::plus);
	}

	/**
	 * A retry runtime whose clock and sleeper are this virtual time.
	 * @param random the random source for the jitter
	 * @return the runtime
	 */
	public RetryRuntime runtime(RandomGenerator random) {
		return new RetryRuntime(this, this, random);
	}

	@Override
	public Instant instant() {
		synchronized (this.lock) {
			return this.now;
		}
	}

	/**
	 * Always UTC.
	 * @return {@link ZoneOffset#UTC}
	 */
	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	/**
	 * A clock in another zone that tells this virtual time.
	 * @param zone the zone
	 * @return a view of this clock in that zone
	 */
	@Override
	public Clock withZone(ZoneId zone) {
		VirtualTime source = this;
		return new Clock() {

			@Override
			public ZoneId getZone() {
				return zone;
			}

			@Override
			public Clock withZone(ZoneId other) {
				return source.withZone(other);
			}

			@Override
			public Instant instant() {
				return source.instant();
			}

		};
	}

	@Override
	public String toString() {
		return "VirtualTime[" + instant() + ", " + sleeps().size() + " sleeps]";
	}

}
