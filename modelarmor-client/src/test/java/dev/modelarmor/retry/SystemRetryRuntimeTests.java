package dev.modelarmor.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import org.springframework.retry.backoff.ThreadWaitSleeper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production runtime, {@link RetryRuntime#system()}: its random source really is random, drawn
 * afresh for every retry (a constant source would put every client of a fleet back in lock-step), its
 * clock is the system's, and it sleeps with {@link Thread#sleep}. Waits are taken from the timeline, not
 * slept: only the random source is the production one.
 */
class SystemRetryRuntimeTests {

	@Test
	void theWaitsOfOneCallVaryFromRetryToRetry() {
		List<Long> jitter = jitterOfOneCall(RetryRuntime.system());

		assertThat(jitter).hasSize(5).allSatisfy((fraction) -> assertThat(fraction).isBetween(0L, 1_000L));
		// five equal fractions in [0, 1000] ms by chance: about one in 10^12
		assertThat(new HashSet<>(jitter)).hasSizeGreaterThan(1);
	}

	@Test
	void theFirstWaitsOfManyCallsSpreadOverTheWholeJitter() {
		Set<Long> firstWaits = new HashSet<>();
		long lowest = Long.MAX_VALUE;
		long highest = Long.MIN_VALUE;
		for (int call = 0; call < 200; call++) {
			long wait = jitterOfOneCall(RetryRuntime.system()).get(0);
			firstWaits.add(wait);
			lowest = Math.min(lowest, wait);
			highest = Math.max(highest, wait);
		}
		assertThat(firstWaits).hasSizeGreaterThan(100);
		// 200 uniform draws from [0, 1000]: the lowest below 100 and the highest above 900, all but surely
		assertThat(lowest).isLessThan(100);
		assertThat(highest).isGreaterThan(900);
	}

	@Test
	void twoThreadsDoNotDrawTheSameWaits() throws Exception {
		RetryRuntime shared = RetryRuntime.system();
		List<Long> here = jitterOfOneCall(shared);
		List<Long> there = CompletableFuture.supplyAsync(() -> jitterOfOneCall(shared)).get();

		assertThat(there).isNotEqualTo(here);
	}

	@Test
	void theClockIsTheSystemsAndTheSleeperSleeps() {
		RetryRuntime system = RetryRuntime.system();

		assertThat(Duration.between(system.clock().instant(), Instant.now()).abs()).isLessThan(Duration.ofSeconds(1));
		assertThat(system.sleeper()).isInstanceOf(ThreadWaitSleeper.class);
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		assertThat(RetryRuntime.system(sleeper).sleeper()).isSameAs(sleeper);
	}

	/** The random part of the first five waits of one call: each wait minus its 2^n s. */
	private static List<Long> jitterOfOneCall(RetryRuntime runtime) {
		VirtualTime time = new VirtualTime();
		RetryTimeline timeline = new RetryTimeline(RetrySettings.DEFAULTS, new RetryRuntime(time, time, runtime.random()));
		List<Long> jitter = new ArrayList<>();
		for (int retry = 0; retry < 5; retry++) {
			RetryTimeline.RetryDecision decision = timeline.next(Optional.empty());
			assertThat(decision.retry()).isTrue();
			jitter.add(decision.delay().toMillis() - (1_000L << retry));
		}
		return jitter;
	}

}
