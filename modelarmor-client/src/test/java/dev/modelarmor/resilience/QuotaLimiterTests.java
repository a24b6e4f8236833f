package dev.modelarmor.resilience;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The quota limiter in virtual time: callers arrive on a virtual clock, a granted permit is sent at its
 * arrival plus its wait (the waits are recorded, not slept, so that callers overlap as they would on many
 * threads), and no 60 s window ever holds more sends than the quota.
 */
class QuotaLimiterTests {

	private final VirtualTime time = new VirtualTime();

	private final List<Long> sleptMillis = new ArrayList<>();

	/** The clock is virtual; a wait is recorded and does not move it, as if each caller had its own thread. */
	private final RetryRuntime overlapping = new RetryRuntime(this.time, this.sleptMillis::add, new SplittableRandom(1));

	@ParameterizedTest
	@ValueSource(ints = { 2, 59, 60, 61, 1200, 1_000_000 })
	void aFullBucketPlusAMinutesRefillIsTheQuota(int quota) {
		QuotaSettings settings = new QuotaSettings(quota, Duration.ZERO, Duration.ofMillis(100));
		assertThat(settings.capacity()).isPositive();
		assertThat(settings.refillPerMinute()).isPositive();
		assertThat(settings.capacity() + settings.refillPerMinute()).isEqualTo(quota);
	}

	@Test
	void threeTimesTheQuotaNeverSendsMoreThanTheQuotaInAnySixtySecondWindow() {
		int quota = 1200;
		QuotaLimiter limiter = QuotaLimiter.local(new QuotaSettings(quota, Duration.ofSeconds(60), Duration.ofMillis(100)),
				this.overlapping);
		List<Instant> sends = new ArrayList<>();
		int refused = 0;
		// 60 calls a second (3 x 1,200 a minute) for five minutes, each with a 60 s deadline
		for (int i = 0; i < 60 * 300; i++) {
			RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(60));
			QuotaLimiter.Permit permit = limiter.acquire(deadline);
			if (permit.refusal() == null) {
				assertThat(permit.waited()).isLessThanOrEqualTo(Duration.ofSeconds(60));
				sends.add(this.time.instant().plus(permit.waited()));
			}
			else {
				assertThat(permit.refusal()).isEqualTo(CallOutcome.QUOTA_EXHAUSTED);
				refused++;
			}
			this.time.advance(Duration.ofNanos(1_000_000_000L / 60));
		}
		sends.sort(null);
		int most = mostInAnyWindow(sends, Duration.ofSeconds(60));
		assertThat(most).as("sends in the busiest 60 s window").isLessThanOrEqualTo(quota);
		// the limiter is not simply refusing: it sends about the quota
		assertThat(most).isGreaterThan(quota * 95 / 100);
		assertThat(refused).isGreaterThan(0);
	}

	@Test
	void aPermitThatWouldOutlastTheDeadlineIsRefusedWithoutWaitingAndGivenBack() {
		QuotaLimiter limiter = QuotaLimiter.local(new QuotaSettings(120, Duration.ofSeconds(30), Duration.ofMillis(100)),
				this.overlapping);
		// capacity 2: both taken now
		assertThat(limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(1))).refusal()).isNull();
		assertThat(limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(1))).refusal()).isNull();
		// the next permit is due in 60/118 s: more than a 100 ms deadline allows
		for (int i = 0; i < 50; i++) {
			QuotaLimiter.Permit refused = limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofMillis(100)));
			assertThat(refused.refusal()).isEqualTo(CallOutcome.QUOTA_EXHAUSTED);
		}
		assertThat(this.sleptMillis).as("a refused caller never waits").isEmpty();
		// the refused reservations were given back: the next permit is due as if they had never asked
		this.time.advance(Duration.ofMillis(60_000 / 118 + 1));
		QuotaLimiter.Permit next = limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofMillis(100)));
		assertThat(next.refusal()).isNull();
		assertThat(next.waited()).isZero();
	}

	@Test
	void aCallWaitsWithinItsDeadlineAndMaxWait() {
		QuotaLimiter limiter = QuotaLimiter.local(new QuotaSettings(120, Duration.ofSeconds(2), Duration.ofMillis(100)),
				new RetryRuntime(this.time, this.time, new SplittableRandom(1)));
		limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(5)));
		limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(5)));
		QuotaLimiter.Permit waited = limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(5)));
		assertThat(waited.refusal()).isNull();
		assertThat(waited.waited()).isBetween(Duration.ofMillis(500), Duration.ofMillis(520));
		assertThat(this.time.totalSlept()).isBetween(Duration.ofMillis(500), Duration.ofMillis(521));
		// with no deadline (a retry template that is not the starter's) it does not wait at all
		assertThat(limiter.acquire(null).refusal()).isEqualTo(CallOutcome.QUOTA_EXHAUSTED);
	}

	@Test
	void withTheDefaultsABurstIsServedAsTheMinutesQuotaAllowsWithinTheDeadline() {
		// 600 calls at one instant, each with Google's 60 s deadline; no max-wait (the default)
		QuotaLimiter limiter = QuotaLimiter.local(QuotaSettings.DEFAULTS, this.overlapping);
		List<Instant> sends = new ArrayList<>();
		for (int i = 0; i < 600; i++) {
			QuotaLimiter.Permit permit = limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(60)));
			assertThat(permit.refusal()).as("call %d", i).isNull();
			sends.add(this.time.instant().plus(permit.waited()));
		}
		// a bucket of 20, then 19.67 a second: the 600th is sent 29.5 s later, far inside its deadline
		assertThat(sends.get(599)).isBefore(this.time.instant().plus(Duration.ofSeconds(31)));
		assertThat(mostInAnyWindow(sends, Duration.ofSeconds(60))).isLessThanOrEqualTo(1200);
		// the 1,200th of a larger burst would wait past its deadline: refused at once, never waited for
		for (int i = 0; i < 600; i++) {
			limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(60)));
		}
		QuotaLimiter.Permit past = limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(60)));
		assertThat(past.refusal()).isEqualTo(CallOutcome.QUOTA_EXHAUSTED);
	}

	@Test
	void withAMaxWaitTheOperatorRefusesEarlier() {
		QuotaLimiter limiter = QuotaLimiter.local(new QuotaSettings(1200, Duration.ofSeconds(2), Duration.ofMillis(100)),
				this.overlapping);
		int granted = 0;
		for (int i = 0; i < 600; i++) {
			if (limiter.acquire(RetryDeadline.startingNow(this.time, Duration.ofSeconds(60))).refusal() == null) {
				granted++;
			}
		}
		// the bucket of 20 and two seconds of refill
		assertThat(granted).isBetween(58, 61);
	}

	@ParameterizedTest
	@CsvSource({ "1, PT2S, PT0.1S, queries-per-minute", "1000001, PT2S, PT0.1S, queries-per-minute",
			"1200, PT-1S, PT0.1S, max-wait", "1200, PT2S, PT0S, redis-timeout", "1200, PT2S, PT11S, redis-timeout" })
	void invalidSettingsNameTheSetting(int quota, Duration maxWait, Duration redisTimeout, String setting) {
		assertThatThrownBy(() -> new QuotaSettings(quota, maxWait, redisTimeout))
			.isInstanceOfSatisfying(InvalidSettingException.class, (ex) -> assertThat(ex.setting()).isEqualTo(setting));
	}

	@ParameterizedTest
	@CsvSource({ "1200, 1", "1200, 1201", "120, 1200" })
	void aFallbackQuotaOutsideTwoToTheQuotaIsRefusedNamingIt(int quota, int fallback) {
		assertThatThrownBy(() -> new QuotaSettings(quota, Duration.ofSeconds(2), Duration.ofMillis(100), fallback))
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.setting()).isEqualTo("fallback-queries-per-minute"));
	}

	@Test
	void withoutAFallbackQuotaTheFallbackKeepsTheWholeQuota() {
		assertThat(QuotaSettings.DEFAULTS.fallbackQueriesPerMinute()).isEqualTo(1200);
		QuotaSettings fallback = new QuotaSettings(1200, Duration.ofSeconds(2), Duration.ofMillis(100), 400).fallback();
		assertThat(fallback.queriesPerMinute()).isEqualTo(400);
		assertThat(fallback.capacity()).isEqualTo(6);
		assertThat(fallback.maxWait()).isEqualTo(Duration.ofSeconds(2));
	}

	static int mostInAnyWindow(List<Instant> sorted, Duration window) {
		int most = 0;
		int start = 0;
		for (int end = 0; end < sorted.size(); end++) {
			while (!sorted.get(start).plus(window).isAfter(sorted.get(end))) {
				start++;
			}
			most = Math.max(most, end - start + 1);
		}
		return most;
	}

}
