package dev.modelarmor.retry;

import java.math.BigInteger;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackoffScheduleTests {

	private static final int SEEDS = 200;

	static Stream<Arguments> schedules() {
		return Stream.of(Arguments.of(BackoffSchedule.GOOGLE_DEFAULT),
				Arguments.of(schedule(250, 100, 10_000)),
				Arguments.of(schedule(1_000, 1_000, 64_000)),
				Arguments.of(schedule(100, 0, 5_000)),
				Arguments.of(schedule(0, 500, 2_000)),
				Arguments.of(schedule(3, 7, 3)));
	}

	@ParameterizedTest
	@MethodSource("schedules")
	void everyWaitLiesBetweenTheCappedExponentialAndTheCappedExponentialPlusJitter(BackoffSchedule schedule) {
		for (int n = 0; n <= 40; n++) {
			for (long seed = 0; seed < SEEDS; seed++) {
				long wait = schedule.delayBeforeRetry(n, new SplittableRandom(seed)).toMillis();
				assertThat(wait).as("n=%d seed=%d", n, seed)
					.isBetween(lowerBound(schedule, n), upperBound(schedule, n));
			}
		}
	}

	@ParameterizedTest
	@MethodSource("schedules")
	void waitIsExactlyTheCapOnceTheExponentialReachesIt(BackoffSchedule schedule) {
		long cap = schedule.maxBackoff().toMillis();
		for (int n = 0; n <= 40; n++) {
			if (exponential(schedule, n).compareTo(BigInteger.valueOf(cap)) < 0) {
				continue;
			}
			for (long seed = 0; seed < SEEDS; seed++) {
				assertThat(schedule.delayBeforeRetry(n, new SplittableRandom(seed)))
					.as("n=%d seed=%d", n, seed)
					.isEqualTo(schedule.maxBackoff());
			}
		}
	}

	@ParameterizedTest
	@MethodSource("schedules")
	void waitNeverExceedsTheCapEvenForHugeRetryIndexes(BackoffSchedule schedule) {
		for (int n : new int[] { 41, 62, 63, 64, 65, 100, 1000, Integer.MAX_VALUE - 1, Integer.MAX_VALUE }) {
			for (RandomGenerator random : new RandomGenerator[] { TestRandoms.lowest(), TestRandoms.highest(),
					new SplittableRandom(n) }) {
				Duration wait = schedule.delayBeforeRetry(n, random);
				assertThat(wait).as("n=%d", n).isLessThanOrEqualTo(schedule.maxBackoff()).isGreaterThanOrEqualTo(Duration.ZERO);
				if (schedule.initialBackoff().toMillis() > 0) {
					assertThat(wait).as("n=%d", n).isEqualTo(schedule.maxBackoff());
				}
			}
		}
	}

	static Stream<Arguments> hugeSchedules() {
		return Stream.of(Arguments.of(schedule(Long.MAX_VALUE / 2, Long.MAX_VALUE, Long.MAX_VALUE)),
				Arguments.of(schedule(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)),
				Arguments.of(schedule(1, Long.MAX_VALUE, Long.MAX_VALUE)),
				Arguments.of(schedule(Long.MAX_VALUE - 1, 1, Long.MAX_VALUE)),
				Arguments.of(new BackoffSchedule(Duration.ofDays(365L * 1_000_000), Duration.ofDays(365L * 1_000_000),
						Duration.ofDays(365L * 100_000_000))));
	}

	@ParameterizedTest
	@MethodSource("hugeSchedules")
	void hugeDurationsNeitherOverflowNorExceedTheCap(BackoffSchedule schedule) {
		for (int n : new int[] { 0, 1, 2, 30, 62, 63, 64, 1000, Integer.MAX_VALUE }) {
			for (RandomGenerator random : new RandomGenerator[] { TestRandoms.lowest(), TestRandoms.highest(),
					new SplittableRandom(n) }) {
				long wait = schedule.delayBeforeRetry(n, random).toMillis();
				assertThat(wait).as("n=%d", n).isBetween(lowerBound(schedule, n), upperBound(schedule, n));
			}
		}
	}

	@Test
	void durationsBeyondLongMillisecondsSaturateInsteadOfFailing() {
		Duration longest = Duration.ofSeconds(Long.MAX_VALUE);
		BackoffSchedule allHuge = new BackoffSchedule(longest, longest, longest);
		BackoffSchedule hugeJitterAndCap = new BackoffSchedule(Duration.ofMillis(1), longest, longest);
		for (int n : new int[] { 0, 1, 63, 64, Integer.MAX_VALUE }) {
			for (RandomGenerator random : new RandomGenerator[] { TestRandoms.lowest(), TestRandoms.highest(),
					new SplittableRandom(n) }) {
				assertThat(allHuge.delayBeforeRetry(n, random)).as("n=%d", n)
					.isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
				assertThat(hugeJitterAndCap.delayBeforeRetry(n, random)).as("n=%d", n)
					.isGreaterThanOrEqualTo(Duration.ofMillis(1L << Math.min(n, 62)))
					.isLessThanOrEqualTo(longest);
			}
		}
	}

	@Test
	void googleDefaultsWaitOneToTwoThenTwoToThreeThenFourToFiveSecondsAndSoOn() {
		long[][] expected = { { 1_000, 2_000 }, { 2_000, 3_000 }, { 4_000, 5_000 }, { 8_000, 9_000 },
				{ 16_000, 17_000 }, { 32_000, 32_000 }, { 32_000, 32_000 } };
		for (long seed = 0; seed < SEEDS; seed++) {
			SplittableRandom random = new SplittableRandom(seed);
			for (int n = 0; n < expected.length; n++) {
				assertThat(BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(n, random).toMillis()).as("n=%d", n)
					.isBetween(expected[n][0], expected[n][1]);
			}
		}
	}

	@Test
	void zeroJitterIsDeterministicAndExactlyTheDoubledInitialBackoff() {
		BackoffSchedule schedule = schedule(250, 0, 10_000);
		long[] expected = { 250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000 };
		for (int n = 0; n < expected.length; n++) {
			Duration withOneSeed = schedule.delayBeforeRetry(n, new SplittableRandom(1));
			Duration withAnotherSeed = schedule.delayBeforeRetry(n, new SplittableRandom(2));
			Duration withExtreme = schedule.delayBeforeRetry(n, TestRandoms.highest());
			assertThat(withOneSeed).as("n=%d", n).isEqualTo(Duration.ofMillis(expected[n]));
			assertThat(withAnotherSeed).isEqualTo(withOneSeed);
			assertThat(withExtreme).isEqualTo(withOneSeed);
		}
	}

	@Test
	void randomSourceIsAskedOncePerWait() {
		TestRandoms.Counting random = new TestRandoms.Counting(new SplittableRandom(7));
		for (int n = 0; n < 10; n++) {
			BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(n, random);
			assertThat(random.requests()).as("after wait %d", n).isEqualTo(n + 1);
		}
	}

	@Test
	void differentDrawsGiveDifferentWaits() {
		BackoffSchedule schedule = BackoffSchedule.GOOGLE_DEFAULT;
		assertThat(schedule.delayBeforeRetry(0, TestRandoms.lowest()))
			.isNotEqualTo(schedule.delayBeforeRetry(0, TestRandoms.highest()));
		SplittableRandom random = new SplittableRandom(11);
		Set<Duration> distinct = new HashSet<>();
		for (int i = 0; i < 100; i++) {
			distinct.add(schedule.delayBeforeRetry(2, random));
		}
		assertThat(distinct).as("100 draws from one source for the same retry").hasSizeGreaterThan(80);
	}

	@Test
	void jitterIsUniformOverItsRange() {
		// 999 ms of jitter: 1000 possible values, 100 in each of 10 buckets
		BackoffSchedule schedule = schedule(1_000, 999, 32_000);
		int draws = 100_000;
		int buckets = 10;
		long[] counts = new long[buckets];
		SplittableRandom random = new SplittableRandom(20260101L);
		for (int i = 0; i < draws; i++) {
			long jitter = schedule.delayBeforeRetry(0, random).toMillis() - 1_000;
			assertThat(jitter).isBetween(0L, 999L);
			counts[(int) (jitter / 100)]++;
		}
		double expected = (double) draws / buckets;
		double chiSquare = 0;
		for (long count : counts) {
			chiSquare += (count - expected) * (count - expected) / expected;
		}
		// 99.9% critical value of the chi-square distribution with 9 degrees of freedom
		assertThat(chiSquare).as("chi-square of %s", java.util.Arrays.toString(counts)).isLessThan(27.88);
	}

	@Test
	void bothEndsOfTheJitterAreReachable() {
		BackoffSchedule schedule = schedule(250, 100, 10_000);
		assertThat(schedule.delayBeforeRetry(0, TestRandoms.lowest())).isEqualTo(Duration.ofMillis(250));
		assertThat(schedule.delayBeforeRetry(0, TestRandoms.highest())).isEqualTo(Duration.ofMillis(350));
		assertThat(BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(3, TestRandoms.lowest()))
			.isEqualTo(Duration.ofSeconds(8));
		assertThat(BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(3, TestRandoms.highest()))
			.isEqualTo(Duration.ofSeconds(9));
	}

	@Test
	void jitterIsCutByTheCapJustBelowIt() {
		BackoffSchedule schedule = schedule(1_000, 1_000, 4_500);
		assertThat(schedule.delayBeforeRetry(2, TestRandoms.lowest())).isEqualTo(Duration.ofMillis(4_000));
		assertThat(schedule.delayBeforeRetry(2, TestRandoms.highest())).isEqualTo(Duration.ofMillis(4_500));
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, -2, Integer.MIN_VALUE })
	void negativeRetryIndexIsRejected(int retry) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(retry, new SplittableRandom(0)));
	}

	@Test
	void negativeInitialBackoffIsRejected() {
		assertThatThrownBy(() -> schedule(-1, 1_000, 32_000)).isInstanceOfSatisfying(InvalidSettingException.class,
				(ex) -> {
					assertThat(ex.setting()).isEqualTo("initial-backoff");
					assertThat(ex.value()).isEqualTo(Duration.ofMillis(-1));
				});
	}

	@Test
	void negativeJitterIsRejected() {
		assertThatThrownBy(() -> schedule(1_000, -1, 32_000)).isInstanceOfSatisfying(InvalidSettingException.class,
				(ex) -> assertThat(ex.setting()).isEqualTo("jitter"));
	}

	@Test
	void negativeMaxBackoffIsRejected() {
		assertThatThrownBy(() -> schedule(0, 0, -1)).isInstanceOfSatisfying(InvalidSettingException.class,
				(ex) -> assertThat(ex.setting()).isEqualTo("max-backoff"));
	}

	@Test
	void capBelowInitialBackoffIsRejected() {
		assertThatThrownBy(() -> schedule(2_000, 0, 1_999)).isInstanceOfSatisfying(InvalidSettingException.class,
				(ex) -> {
					assertThat(ex.setting()).isEqualTo("max-backoff");
					assertThat(ex.value()).isEqualTo(Duration.ofMillis(1_999));
				});
	}

	@Test
	void capEqualToInitialBackoffIsAccepted() {
		BackoffSchedule schedule = schedule(2_000, 500, 2_000);
		assertThat(schedule.delayBeforeRetry(0, TestRandoms.highest())).isEqualTo(Duration.ofMillis(2_000));
	}

	private static BackoffSchedule schedule(long initialMillis, long jitterMillis, long maxMillis) {
		return new BackoffSchedule(Duration.ofMillis(initialMillis), Duration.ofMillis(jitterMillis),
				Duration.ofMillis(maxMillis));
	}

	private static BigInteger exponential(BackoffSchedule schedule, int n) {
		// any positive base doubled 200 times is far beyond every long; saves shifting by billions
		return BigInteger.valueOf(schedule.initialBackoff().toMillis()).shiftLeft(Math.min(n, 200));
	}

	private static long lowerBound(BackoffSchedule schedule, int n) {
		return min(exponential(schedule, n), schedule.maxBackoff().toMillis());
	}

	private static long upperBound(BackoffSchedule schedule, int n) {
		BigInteger withJitter = exponential(schedule, n).add(BigInteger.valueOf(schedule.jitter().toMillis()));
		return min(withJitter, schedule.maxBackoff().toMillis());
	}

	private static long min(BigInteger value, long cap) {
		return value.min(BigInteger.valueOf(cap)).longValueExact();
	}

	@Test
	void aScheduleThatNeverWaitsIsRejected() {
		assertThatThrownBy(() -> schedule(0, 0, 32_000)).isInstanceOfSatisfying(InvalidSettingException.class,
				(ex) -> {
					assertThat(ex.setting()).isEqualTo("initial-backoff");
					assertThat(ex.reason()).contains("without a pause");
				});
	}

}
