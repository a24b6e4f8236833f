package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;

/**
 * The quota kept in this process: a Bucket4j bucket on the given clock.
 */
final class LocalQuotaBucket implements QuotaBucket {

	private final Bucket bucket;

	LocalQuotaBucket(QuotaSettings settings, Clock clock) {
		this.bucket = Bucket.builder().addLimit(bandwidth(settings)).withCustomTimePrecision(timeMeter(clock)).build();
	}

	@Override
	public Reservation reserve() {
		long wait = this.bucket.consumeIgnoringRateLimits(1);
		return new Reservation() {

			@Override
			public long waitNanos() {
				return wait;
			}

			@Override
			public void refund() {
				LocalQuotaBucket.this.bucket.addTokens(1);
			}

		};
	}

	/** Capacity plus a minute's greedy refill: never more than the quota in any 60 s window. */
	static Bandwidth bandwidth(QuotaSettings settings) {
		return Bandwidth.builder()
			.capacity(settings.capacity())
			.refillGreedy(settings.refillPerMinute(), Duration.ofMinutes(1))
			.build();
	}

	static BucketConfiguration configuration(QuotaSettings settings) {
		return BucketConfiguration.builder().addLimit(bandwidth(settings)).build();
	}

	/** Wall-clock nanoseconds from a {@link Clock}: the instances of a fleet share the same time. */
	static TimeMeter timeMeter(Clock clock) {
		return new TimeMeter() {

			@Override
			public long currentTimeNanos() {
				Instant now = clock.instant();
				return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
			}

			@Override
			public boolean isWallClockBased() {
				return true;
			}

		};
	}

}
