package dev.modelarmor.retry;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.ThreadWaitSleeper;

/**
 * What the retry strategy needs from the outside world: a clock for the deadline, a sleeper for the
 * waits and a random source for the jitter. Tests pass virtual ones so that retry arithmetic runs
 * without real waiting; applications use {@link #system()}.
 *
 * @param clock tells the time for deadlines
 * @param sleeper performs the waits
 * @param random draws the jitter
 */
public record RetryRuntime(Clock clock, Sleeper sleeper, RandomGenerator random) {

	/**
	 * Rejects missing parts.
	 */
	public RetryRuntime {
		Objects.requireNonNull(clock, "clock");
		Objects.requireNonNull(sleeper, "sleeper");
		Objects.requireNonNull(random, "random");
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
