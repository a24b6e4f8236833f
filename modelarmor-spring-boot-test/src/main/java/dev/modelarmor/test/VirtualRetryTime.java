package dev.modelarmor.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.modelarmor.retry.RetryRuntime;

import org.springframework.retry.backoff.Sleeper;

/**
 * The time that the client's retries run on in a test with
 * {@link AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn}: a wait between two attempts
 * returns at once and moves the client's clock forward by its length instead. Retry schedules, server
 * hints and deadlines so behave as in production (a call against a Model Armor that is down still makes
 * six attempts over about a minute of the client's time) while the test takes milliseconds. Real time
 * passes too: the clock is the system clock plus every wait skipped, so a slow answer still counts
 * against the deadline.
 *
 * <p>Inject it to check the waits: {@code assertThat(retryTime.waits()).hasSize(2)}. Reset with the
 * stand-in, before and after each test method.
 */
public final class VirtualRetryTime {

	private final Object lock = new Object();

	private final List<Duration> waits = new ArrayList<>();

	private final Clock system;

	private Duration skipped = Duration.ZERO;

	/**
	 * Creates virtual retry time over the UTC system clock.
	 */
	public VirtualRetryTime() {
		this(Clock.systemUTC());
	}

	VirtualRetryTime(Clock system) {
		this.system = system;
	}

	/**
	 * The runtime to give the client: this clock, this sleeper, and a thread-local random source for the
	 * jitter.
	 * @return the runtime
	 */
	public RetryRuntime runtime() {
		return new RetryRuntime(new SkippingClock(ZoneOffset.UTC), new SkippingSleeper(),
				() -> ThreadLocalRandom.current().nextLong());
	}

	/**
	 * The waits skipped since the last reset, oldest first.
	 * @return an immutable copy
	 */
	public List<Duration> waits() {
		synchronized (this.lock) {
			return List.copyOf(this.waits);
		}
	}

	/**
	 * Forgets the waits. The clock keeps its lead: time never goes backwards.
	 */
	public void reset() {
		synchronized (this.lock) {
			this.waits.clear();
		}
	}

	private Instant now() {
		synchronized (this.lock) {
			return this.system.instant().plus(this.skipped);
		}
	}

	private void skip(long millis) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before a retry wait");
		}
		if (millis < 0) {
			throw new IllegalArgumentException("A wait must not be negative: " + millis);
		}
		Duration wait = Duration.ofMillis(millis);
		synchronized (this.lock) {
			this.waits.add(wait);
			this.skipped = this.skipped.plus(wait);
		}
	}

	private final class SkippingSleeper implements Sleeper {

		@Override
		public void sleep(long backOffPeriod) throws InterruptedException {
			skip(backOffPeriod);
		}

	}

	private final class SkippingClock extends Clock {

		private final ZoneId zone;

		SkippingClock(ZoneId zone) {
			this.zone = zone;
		}

		@Override
		public ZoneId getZone() {
			return this.zone;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return new SkippingClock(zone);
		}

		@Override
		public Instant instant() {
			return now();
		}

	}

}
