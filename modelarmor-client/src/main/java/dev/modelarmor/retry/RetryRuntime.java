package dev.modelarmor.retry;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.ThreadWaitSleeper;

/**
 * What the retry strategy needs from the outside world: a clock for the deadline, a sleeper for the
 * waits of the blocking path, a delayer for those of the non-blocking path, and a random source for the
 * jitter. Tests pass virtual ones so that retry arithmetic runs without real waiting; applications use
 * {@link #system()}.
 *
 * @param clock tells the time for deadlines
 * @param sleeper performs the waits of the blocking path
 * @param random draws the jitter
 * @param delayer schedules the waits of the non-blocking path
 */
public record RetryRuntime(Clock clock, Sleeper sleeper, RandomGenerator random, RetryDelayer delayer) {

	/**
	 * Rejects missing parts.
	 */
	public RetryRuntime {
		Objects.requireNonNull(clock, "clock");
		Objects.requireNonNull(sleeper, "sleeper");
		Objects.requireNonNull(random, "random");
		Objects.requireNonNull(delayer, "delayer");
	}

	/**
	 * A runtime whose non-blocking waits follow the sleeper: scheduled on the shared timer for
	 * {@link ThreadWaitSleeper}, scheduled and ended at shutdown for a {@link ShutdownAwareSleeper}, and
	 * otherwise slept with the sleeper itself ({@link RetryDelayer#sleeping(Sleeper)}), which suits the
	 * virtual sleepers of tests; give a {@link RetryDelayer} of one's own with a real sleeper of one's own.
	 * @param clock tells the time for deadlines
	 * @param sleeper performs the waits
	 * @param random draws the jitter
	 */
	public RetryRuntime(Clock clock, Sleeper sleeper, RandomGenerator random) {
		this(clock, sleeper, random, delayerFor(sleeper));
	}

	private static RetryDelayer delayerFor(Sleeper sleeper) {
		if (sleeper instanceof RetryDelayer delayer) {
			return delayer;
		}
		return (sleeper instanceof ThreadWaitSleeper) ? RetryDelayer.scheduled() : RetryDelayer.sleeping(sleeper);
	}

	/**
	 * The real world: the UTC system clock, {@link Thread#sleep}, and a thread-local random source.
	 * @return the system runtime
	 */
	public static RetryRuntime system() {
		return system(new ThreadWaitSleeper());
	}

	/**
	 * The real world with a sleeper of one's own, e.g. a {@link ShutdownAwareSleeper}.
	 * @param sleeper performs the waits
	 * @return the runtime
	 */
	public static RetryRuntime system(Sleeper sleeper) {
		return new RetryRuntime(Clock.systemUTC(), sleeper, () -> ThreadLocalRandom.current().nextLong());
	}

}
