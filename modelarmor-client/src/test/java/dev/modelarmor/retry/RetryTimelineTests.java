package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;

import dev.modelarmor.retry.RetryTimeline.RetryDecision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pure decision behind both adapters: the schedule's wait, raised by a hint, refused past the deadline.
 */
class RetryTimelineTests {

	private static final RetrySettings NO_JITTER = new RetrySettings(
			new BackoffSchedule(Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(32)), Duration.ofSeconds(10),
			true, true);

	private final VirtualTime time = new VirtualTime();

	private final RetryTimeline timeline = new RetryTimeline(NO_JITTER, this.time.runtime(new SplittableRandom(5)));

	@Test
	void followsTheScheduleWhileTheWaitsFit() {
		assertThat(next(Optional.empty())).isEqualTo(new RetryDecision(Duration.ofSeconds(1), null));
		assertThat(next(Optional.empty())).isEqualTo(new RetryDecision(Duration.ofSeconds(2), null));
		assertThat(next(Optional.empty())).isEqualTo(new RetryDecision(Duration.ofSeconds(4), null));
		// 7 s slept, 3 s left: the 8 s wait does not fit.
		assertThat(next(Optional.empty())).isEqualTo(new RetryDecision(Duration.ofSeconds(8), CallOutcome.DEADLINE_EXCEEDED));
	}

	@Test
	void aLargerHintRaisesTheWaitAndASmallerOneDoesNot() {
		assertThat(next(Optional.of(Duration.ofSeconds(3))).delay()).isEqualTo(Duration.ofSeconds(3));
		assertThat(next(Optional.of(Duration.ofMillis(10))).delay()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aHintPastTheDeadlineIsNamedAsTheCause() {
		RetryDecision decision = next(Optional.of(Duration.ofSeconds(11)));

		assertThat(decision.retry()).isFalse();
		assertThat(decision.stop()).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		assertThat(decision.stop().tag()).isEqualTo("retry_after_exceeds_deadline");
	}

	@Test
	void aWaitEndingExactlyAtTheDeadlineFits() {
		this.time.advance(Duration.ofSeconds(9));

		assertThat(next(Optional.empty()).retry()).isTrue();
	}

	private RetryDecision next(Optional<Duration> hint) {
		RetryDecision decision = this.timeline.next(hint);
		if (decision.retry()) {
			this.time.sleep(decision.delay().toMillis());
		}
		return decision;
	}

}
