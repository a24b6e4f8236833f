package dev.modelarmor.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class TruncatedExponentialBackOffTests {

	private static final BackoffSchedule NO_JITTER = new BackoffSchedule(Duration.ofSeconds(1), Duration.ZERO,
			Duration.ofSeconds(32));

	private final VirtualTime time = new VirtualTime();

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, 42, 20260101 })
	void waitsFollowTheScheduleUntilTheNextWouldPassTheDeadline(long seed) {
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(RetrySettings.DEFAULTS,
				this.time.runtime(new SplittableRandom(seed)));
		List<Long> waits = drain(backOff.start());

		SplittableRandom replay = new SplittableRandom(seed);
		List<Long> expected = new ArrayList<>();
		long total = 0;
		for (int n = 0;; n++) {
			long wait = BackoffSchedule.GOOGLE_DEFAULT.delayBeforeRetry(n, replay).toMillis();
			if (total + wait > 60_000) {
				break;
			}
			expected.add(wait);
			total += wait;
		}
		assertThat(waits).isEqualTo(expected).hasSize(5);
		assertThat(waits.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(60_000);
	}

	@Test
	void withoutJitterTheWaitsAreExactAndCapped() {
		RetrySettings settings = new RetrySettings(NO_JITTER, Duration.ofSeconds(200), true, true);
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(settings,
				this.time.runtime(TestRandoms.unused()));
		// 1+2+4+8+16 = 31, then 32 s waits ending at 63, 95, 127, 159, 191; 223 would pass 200
		assertThat(drain(backOff.start())).containsExactly(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 32_000L,
				32_000L, 32_000L, 32_000L);
	}

	@Test
	void waitEndingExactlyAtTheDeadlineIsGiven() {
		RetrySettings settings = new RetrySettings(NO_JITTER, Duration.ofSeconds(7), true, true);
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(settings,
				this.time.runtime(TestRandoms.unused()));
		assertThat(drain(backOff.start())).containsExactly(1_000L, 2_000L, 4_000L);
	}

	@Test
	void stopsWhenTheCallerTookTooLongBetweenWaits() {
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(
				new RetrySettings(NO_JITTER, Duration.ofSeconds(60), true, true), this.time.runtime(TestRandoms.unused()));
		BackOffExecution execution = backOff.start();
		assertThat(execution.nextBackOff()).isEqualTo(1_000L);
		// the 1 s wait and a 57.001 s attempt: the next 2 s wait would end at 60.001 s
		this.time.sleep(1_000);
		this.time.advance(Duration.ofMillis(57_001));
		assertThat(execution.nextBackOff()).isEqualTo(BackOffExecution.STOP);
	}

	@Test
	void eachStartGetsAFreshDeadline() {
		RetrySettings settings = new RetrySettings(NO_JITTER, Duration.ofSeconds(60), true, true);
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(settings,
				this.time.runtime(TestRandoms.unused()));
		List<Long> first = drain(backOff.start());
		this.time.advance(Duration.ofHours(1));
		List<Long> second = drain(backOff.start());
		assertThat(first).containsExactly(1_000L, 2_000L, 4_000L, 8_000L, 16_000L);
		assertThat(second).isEqualTo(first);
	}

	@Test
	void executionStartedEarlierKeepsItsOwnDeadline() {
		RetrySettings settings = new RetrySettings(NO_JITTER, Duration.ofSeconds(10), true, true);
		TruncatedExponentialBackOff backOff = new TruncatedExponentialBackOff(settings,
				this.time.runtime(TestRandoms.unused()));
		BackOffExecution early = backOff.start();
		this.time.advance(Duration.ofSeconds(9));
		BackOffExecution late = backOff.start();
		assertThat(early.nextBackOff()).isEqualTo(1_000L);
		assertThat(late.nextBackOff()).isEqualTo(1_000L);
		assertThat(early.nextBackOff()).isEqualTo(BackOffExecution.STOP);
	}

	/** Takes waits until STOP, advancing virtual time by each as a caller sleeping them would. */
	private List<Long> drain(BackOffExecution execution) {
		List<Long> waits = new ArrayList<>();
		for (int i = 0; i < 1_000; i++) {
			long wait = execution.nextBackOff();
			if (wait == BackOffExecution.STOP) {
				return waits;
			}
			assertThat(wait).isNotNegative();
			waits.add(wait);
			this.time.sleep(wait);
		}
		throw new AssertionError("no STOP after 1000 waits: " + waits);
	}

	/**
	 * The class's Javadoc example, with Spring Framework's own retry: real time, so the schedule is scaled
	 * down and the bounds loose. Waits of 50, 100 and 200 ms fit in 500 ms; the next 200 ms would end past it.
	 */
	@Test
	void drivesSpringFrameworksRetryTemplateAsItsJavadocShows() {
		RetrySettings scaledDown = new RetrySettings(
				new BackoffSchedule(Duration.ofMillis(50), Duration.ZERO, Duration.ofMillis(200)), Duration.ofMillis(500),
				true, true);
		BackOff backOff = new TruncatedExponentialBackOff(scaledDown, RetryRuntime.system());
		RetryPolicy policy = RetryPolicy.builder().backOff(backOff).build();
		List<Long> attempts = new ArrayList<>();
		assertThatExceptionOfType(RetryException.class).isThrownBy(() -> new RetryTemplate(policy).execute(() -> {
			attempts.add(System.nanoTime());
			throw new IllegalStateException("Model Armor unavailable");
		}));
		// On a quiet machine 4 attempts; on a loaded one a late wake-up leaves less of the deadline, so fewer.
		// Never more than the schedule allows, and never a wait shorter than scheduled.
		assertThat(attempts).hasSizeBetween(2, 4);
		long[] scheduled = { 50, 100, 200 };
		for (int i = 1; i < attempts.size(); i++) {
			assertThat(Duration.ofNanos(attempts.get(i) - attempts.get(i - 1))).as("wait before attempt %d", i + 1)
				.isGreaterThanOrEqualTo(Duration.ofMillis(scheduled[i - 1]));
		}
	}

}
