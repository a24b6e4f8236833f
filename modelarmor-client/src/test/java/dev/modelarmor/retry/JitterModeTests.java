package dev.modelarmor.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The arithmetic of the three jitter modes, in virtual time: bounds for every retry up to 40, never
 * above the cap, and the deadline and hint rules of the {@link RetryTimeline} unchanged by the mode.
 */
class JitterModeTests {

	private static final long BASE = 1_000;

	private static final long CAP = 32_000;

	private static final BackoffSchedule GOOGLE = BackoffSchedule.GOOGLE_DEFAULT;

	@Test
	void googleIsTheSchedulesOwnFormula() {
		for (int n = 0; n <= 40; n++) {
			SplittableRandom a = new SplittableRandom(n);
			SplittableRandom b = new SplittableRandom(n);
			assertThat(JitterMode.GOOGLE.delayBeforeRetry(GOOGLE, n, null, a)).isEqualTo(GOOGLE.delayBeforeRetry(n, b));
		}
	}

	@Test
	void fullJitterStaysWithinZeroAndTheTruncatedExponentialForEveryRetryUpTo40() {
		for (int n = 0; n <= 40; n++) {
			long ceiling = Math.min(CAP, BASE << Math.min(n, 20));
			assertThat(millis(JitterMode.FULL, n, null, TestRandoms.lowest())).isZero();
			assertThat(millis(JitterMode.FULL, n, null, TestRandoms.highest())).isEqualTo(ceiling);
			SplittableRandom random = new SplittableRandom(n);
			for (int i = 0; i < 200; i++) {
				assertThat(millis(JitterMode.FULL, n, null, random)).isBetween(0L, ceiling);
			}
		}
	}

	@Test
	void fullJitterCoversItsWholeRangeAtTheCap() {
		SplittableRandom random = new SplittableRandom(7);
		long min = Long.MAX_VALUE;
		long max = 0;
		for (int i = 0; i < 2_000; i++) {
			long wait = millis(JitterMode.FULL, 30, null, random);
			min = Math.min(min, wait);
			max = Math.max(max, wait);
		}
		// Unlike Google's formula, which is exactly the cap from 2^n ≥ cap on, full jitter still spreads.
		assertThat(min).isLessThan(CAP / 20);
		assertThat(max).isGreaterThan(CAP - CAP / 20);
	}

	@Test
	void decorrelatedIsAwsFormulaFromBaseToThreeTimesThePreviousWait() {
		// First retry: previous is the base, so U[b, 3b].
		assertThat(millis(JitterMode.DECORRELATED, 0, null, TestRandoms.lowest())).isEqualTo(BASE);
		assertThat(millis(JitterMode.DECORRELATED, 0, null, TestRandoms.highest())).isEqualTo(3 * BASE);
		// Later: U[b, 3 × previous], capped.
		assertThat(millis(JitterMode.DECORRELATED, 1, Duration.ofMillis(2_500), TestRandoms.highest())).isEqualTo(7_500);
		assertThat(millis(JitterMode.DECORRELATED, 1, Duration.ofMillis(2_500), TestRandoms.lowest())).isEqualTo(BASE);
		assertThat(millis(JitterMode.DECORRELATED, 5, Duration.ofMillis(20_000), TestRandoms.highest())).isEqualTo(CAP);
		assertThat(millis(JitterMode.DECORRELATED, 5, Duration.ofMillis(CAP), TestRandoms.lowest())).isEqualTo(BASE);
	}

	@Test
	void decorrelatedChainsStayWithinBaseAndCapForEveryRetryUpTo40() {
		for (long seed = 0; seed < 50; seed++) {
			SplittableRandom random = new SplittableRandom(seed);
			Duration previous = null;
			long upper = BASE;
			for (int n = 0; n <= 40; n++) {
				Duration wait = JitterMode.DECORRELATED.delayBeforeRetry(GOOGLE, n, previous, random);
				upper = Math.min(CAP, upper * 3);
				assertThat(wait.toMillis()).as("seed %d retry %d", seed, n).isBetween(BASE, upper);
				long bound = Math.min(CAP, 3 * ((previous != null) ? previous.toMillis() : BASE));
				assertThat(wait.toMillis()).isLessThanOrEqualTo(bound);
				previous = wait;
			}
		}
	}

	@ParameterizedTest
	@EnumSource(JitterMode.class)
	void noModeEverWaitsLongerThanTheCapEvenWithHugeValues(JitterMode mode) {
		BackoffSchedule huge = new BackoffSchedule(Duration.ofDays(365), Duration.ofDays(365), Duration.ofDays(3650));
		for (RandomGenerator random : List.of(TestRandoms.highest(), TestRandoms.lowest(), new SplittableRandom(3))) {
			Duration previous = null;
			for (int n = 0; n <= 40; n++) {
				Duration wait = mode.delayBeforeRetry(huge, n, previous, random);
				assertThat(wait).isLessThanOrEqualTo(huge.maxBackoff()).isGreaterThanOrEqualTo(Duration.ZERO);
				previous = wait;
			}
		}
		for (int n = 0; n <= 40; n++) {
			assertThat(mode.delayBeforeRetry(GOOGLE, n, Duration.ofMillis(CAP), TestRandoms.highest()))
				.isLessThanOrEqualTo(GOOGLE.maxBackoff());
		}
	}

	@ParameterizedTest
	@EnumSource(JitterMode.class)
	void eachModeAsksTheRandomSourceOncePerRetry(JitterMode mode) {
		TestRandoms.Counting random = new TestRandoms.Counting(new SplittableRandom(1));
		Duration previous = null;
		for (int n = 0; n < 10; n++) {
			previous = mode.delayBeforeRetry(GOOGLE, n, previous, random);
		}
		assertThat(random.requests()).isEqualTo(10);
	}

	@Test
	void aNegativeRetryIsRejected() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> JitterMode.FULL.delayBeforeRetry(GOOGLE, -1, null, new SplittableRandom(1)));
	}

	@Test
	void settingsDefaultToTheSeedModeAndKeepItThroughWithers() {
		assertThat(RetrySettings.DEFAULTS.jitterMode()).isEqualTo(JitterMode.GOOGLE);
		RetrySettings full = RetrySettings.DEFAULTS.withJitterMode(JitterMode.FULL);
		assertThat(full.jitterMode()).isEqualTo(JitterMode.FULL);
		assertThat(full.schedule()).isEqualTo(RetrySettings.DEFAULTS.schedule());
		assertThat(full.deadline()).isEqualTo(RetrySettings.DEFAULTS.deadline());
		assertThat(full.withBudget(RetryBudgetSettings.DEFAULTS).jitterMode()).isEqualTo(JitterMode.FULL);
		assertThat(full.withBudget(RetryBudgetSettings.DEFAULTS).withJitterMode(JitterMode.DECORRELATED).budget())
			.isEqualTo(RetryBudgetSettings.DEFAULTS);
		assertThat(new RetrySettings(GOOGLE, Duration.ofSeconds(5), true, true).jitterMode())
			.isEqualTo(JitterMode.GOOGLE);
	}

	@ParameterizedTest
	@EnumSource(value = JitterMode.class, names = { "FULL", "DECORRELATED" })
	void aZeroInitialBackoffIsRejectedWhereItWouldMeanNoWaitAtAll(JitterMode mode) {
		BackoffSchedule jitterOnly = new BackoffSchedule(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(32));
		RetrySettings seed = new RetrySettings(jitterOnly, Duration.ofSeconds(60), true, true);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> seed.withJitterMode(mode))
			.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("initial-backoff"));
	}

	@ParameterizedTest
	@EnumSource(JitterMode.class)
	void theTimelineStopsAtTheDeadlineInEveryModeAndNeverSleepsPastIt(JitterMode mode) {
		for (long seed = 0; seed < 30; seed++) {
			VirtualTime time = new VirtualTime();
			RetrySettings settings = RetrySettings.DEFAULTS.withJitterMode(mode);
			RetryTimeline timeline = new RetryTimeline(settings, time.runtime(new SplittableRandom(seed)));
			RetryTimeline.RetryDecision decision;
			int retries = 0;
			while ((decision = timeline.next(Optional.empty())).retry()) {
				assertThat(decision.delay()).isLessThanOrEqualTo(GOOGLE.maxBackoff());
				time.sleep(decision.delay().toMillis());
				time.advance(Duration.ofMillis(50)); // the attempt itself
				retries++;
			}
			assertThat(decision.stop()).isEqualTo(CallOutcome.DEADLINE_EXCEEDED);
			assertThat(retries).isPositive();
			assertThat(time.instant()).isBeforeOrEqualTo(VirtualTime.DEFAULT_START.plus(settings.deadline()).plusMillis(50));
			assertThat(time.totalSlept()).isLessThanOrEqualTo(settings.deadline());
		}
	}

	@ParameterizedTest
	@EnumSource(JitterMode.class)
	void aServerHintRaisesTheWaitAndOnePastTheDeadlineIsNamedInEveryMode(JitterMode mode) {
		VirtualTime time = new VirtualTime();
		RetrySettings settings = new RetrySettings(GOOGLE, Duration.ofSeconds(10), true, true).withJitterMode(mode);
		RetryTimeline timeline = new RetryTimeline(settings, time.runtime(new SplittableRandom(9)));

		assertThat(timeline.next(Optional.of(Duration.ofSeconds(4))).delay()).isEqualTo(Duration.ofSeconds(4));
		RetryTimeline.RetryDecision tooLong = timeline.next(Optional.of(Duration.ofSeconds(11)));
		assertThat(tooLong.retry()).isFalse();
		assertThat(tooLong.stop()).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
	}

	@Test
	void decorrelatedTimelineChainsOnItsOwnPreviousWait() {
		VirtualTime time = new VirtualTime();
		RetrySettings settings = new RetrySettings(GOOGLE, Duration.ofSeconds(300), true, true)
			.withJitterMode(JitterMode.DECORRELATED);
		RetryTimeline timeline = new RetryTimeline(settings, time.runtime(TestRandoms.highest()));
		List<Long> waits = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			waits.add(timeline.next(Optional.empty()).delay().toMillis());
		}
		assertThat(waits).containsExactly(3_000L, 9_000L, 27_000L, 32_000L, 32_000L);
	}

	private static long millis(JitterMode mode, int retry, Duration previous, RandomGenerator random) {
		return mode.delayBeforeRetry(GOOGLE, retry, previous, random).toMillis();
	}

}
