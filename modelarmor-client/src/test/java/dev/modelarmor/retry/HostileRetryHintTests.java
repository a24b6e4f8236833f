package dev.modelarmor.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;

import dev.modelarmor.retry.internal.RetryAfterHints;
import dev.modelarmor.retry.RetryTimeline.RetryDecision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.retry.support.RetryTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Whatever retry hint a server sends, seeded at random ({@link HostileHints}): it parses to no hint or a
 * wait in {@code [0, TOO_LONG]}, and the retry strategy turns it into a normal wait or a stop with a named
 * outcome, never an exception of its own. Virtual time throughout; each test names the seed and the value
 * that broke it.
 */
class HostileRetryHintTests {

	private static final int SAMPLES = 3_000;

	@Test
	void everyRetryAfterValueIsNoHintOrAWaitNoLongerThanTooLong() {
		SplittableRandom random = new SplittableRandom(20_260_101);
		for (int i = 0; i < SAMPLES; i++) {
			Instant now = arrival(random);
			String header = HostileHints.retryAfter(random, now);
			Optional<Duration> hint = RetryAfterHints.fromRetryAfterHeader(header, now);
			assertThat(hint).as("Retry-After [%s] at %s", header, now).satisfiesAnyOf(Optional::isEmpty,
					(some) -> assertThat(some.get()).isBetween(Duration.ZERO, RetryAfterHints.TOO_LONG));
			hint.filter((wait) -> wait.compareTo(RetrySettings.MAX_DEADLINE) > 0)
				.ifPresent((tooLong) -> assertThat(tooLong).as(header).isEqualTo(RetryAfterHints.TOO_LONG));
		}
	}

	@Test
	void everyRetryInfoDelayIsNoHintOrAWaitNoLongerThanTooLong() {
		SplittableRandom random = new SplittableRandom(7_919);
		for (int i = 0; i < SAMPLES; i++) {
			String delay = HostileHints.retryInfoDelay(random);
			Optional<Duration> hint = RetryAfterHints.fromRetryInfoDelay(delay);
			assertThat(hint).as("retryDelay [%s]", delay).satisfiesAnyOf(Optional::isEmpty,
					(some) -> assertThat(some.get()).isBetween(Duration.ZERO, RetryAfterHints.TOO_LONG));
		}
	}

	@Test
	void everyExtremeIsReadWithoutAnException() {
		for (Instant now : new Instant[] { Instant.MIN, Instant.EPOCH, VirtualTime.DEFAULT_START, Instant.MAX }) {
			for (String header : HostileHints.RETRY_AFTER_EXTREMES) {
				assertThat(RetryAfterHints.fromRetryAfterHeader(header, now)).as("%s at %s", header, now)
					.satisfiesAnyOf(Optional::isEmpty,
							(some) -> assertThat(some.get()).isBetween(Duration.ZERO, RetryAfterHints.TOO_LONG));
			}
		}
		for (String delay : HostileHints.RETRY_INFO_EXTREMES) {
			assertThat(RetryAfterHints.fromRetryInfoDelay(delay)).as(delay)
				.satisfiesAnyOf(Optional::isEmpty,
						(some) -> assertThat(some.get()).isBetween(Duration.ZERO, RetryAfterHints.TOO_LONG));
		}
	}

	@Test
	void everyHintGivesTheTimelineAWaitThatFitsOrAStopWithItsOutcome() {
		SplittableRandom random = new SplittableRandom(104_729);
		for (int i = 0; i < SAMPLES; i++) {
			VirtualTime time = new VirtualTime(arrival(random));
			Duration deadline = Duration.ofMillis(1 + random.nextLong(RetrySettings.MAX_DEADLINE.toMillis()));
			RetrySettings settings = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, deadline, true, true);
			RetryTimeline timeline = new RetryTimeline(settings, time.runtime(new SplittableRandom(i)));
			Duration elapsed = Duration.ofMillis(random.nextLong(deadline.toMillis() + 1));
			Duration untilTheEndOfTime = Duration.between(time.instant(), Instant.MAX);
			time.advance((elapsed.compareTo(untilTheEndOfTime) < 0) ? elapsed : untilTheEndOfTime);
			String header = HostileHints.retryAfter(random, time.instant());
			Optional<Duration> hint = RetryAfterHints.fromRetryAfterHeader(header, time.instant());
			Duration left = timeline.deadline().remaining();

			RetryDecision decision = timeline.next(hint);

			String what = "Retry-After [" + header + "] with " + left + " left";
			hint.ifPresent((wait) -> assertThat(decision.delay()).as(what).isGreaterThanOrEqualTo(wait));
			if (decision.retry()) {
				assertThat(decision.delay()).as(what).isLessThanOrEqualTo(left);
			}
			else if (hint.isPresent() && hint.get().compareTo(decision.delay()) == 0
					&& hint.get().compareTo(Duration.ofSeconds(2)) > 0) {
				assertThat(decision.stop()).as(what).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
			}
			if (hint.filter(RetryAfterHints.TOO_LONG::equals).isPresent()) {
				assertThat(decision.stop()).as(what).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
			}
		}
	}

	@Test
	void aHintTooLongForTheLongestDeadlineEndsRetryingAtOnce() {
		VirtualTime time = new VirtualTime();
		RetrySettings longest = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, RetrySettings.MAX_DEADLINE, true, true);
		RetryTimeline timeline = new RetryTimeline(longest, time.runtime(TestRandoms.lowest()));

		RetryDecision decision = timeline.next(RetryAfterHints.fromRetryAfterHeader("Fri, 31 Dec 9999 23:59:59 GMT",
				time.instant()));

		assertThat(decision.retry()).isFalse();
		assertThat(decision.stop()).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		assertThat(decision.delay()).isEqualTo(RetryAfterHints.TOO_LONG);
	}

	@Test
	@Timeout(10)
	void everyHintThroughTheRetryTemplateEndsInAnAnswerOrTheServersFailure() {
		SplittableRandom random = new SplittableRandom(31_337);
		for (int i = 0; i < 300; i++) {
			VirtualTime time = new VirtualTime(arrival(random));
			RetryTemplate template = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS,
					time.runtime(new SplittableRandom(i)));
			String header = HostileHints.retryAfter(random, time.instant());
			Optional<Duration> hint = RetryAfterHints.fromRetryAfterHeader(header, time.instant());
			ScriptedCall call = ScriptedCall.alwaysFailing(time,
					() -> TestHttpFailure.status(503, hint.orElse(null)));

			assertThatExceptionOfType(TestHttpFailure.class).as("Retry-After [%s]", header)
				.isThrownBy(() -> template.execute(call));
			assertThat(time.totalSlept()).as(header).isLessThanOrEqualTo(RetrySettings.DEFAULTS.deadline());
			if (hint.filter((wait) -> wait.compareTo(RetrySettings.DEFAULTS.deadline()) > 0).isPresent()) {
				assertThat(call.attempts()).as(header).isEqualTo(1);
			}
		}
	}

	/** When an answer arrives: any time from year 1 to 9999, or the edges of what an Instant holds. */
	private static Instant arrival(SplittableRandom random) {
		return switch (random.nextInt(8)) {
			case 0 -> Instant.MAX.minusSeconds(random.nextInt(100_000));
			case 1 -> Instant.MIN.plusSeconds(random.nextInt(100_000));
			default -> Instant.ofEpochSecond(random.nextLong(-62_135_596_800L, 253_402_300_799L));
		};
	}

}
