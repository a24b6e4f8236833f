package dev.modelarmor.retry;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.retry.RetryContext;
import org.springframework.retry.context.RetryContextSupport;

import static org.assertj.core.api.Assertions.assertThat;

class RetryRecordsTests {

	private final RetryContextSupport context = new RetryContextSupport(null);

	@Test
	void theWaitsOfACallAddUp() {
		assertThat(RetryRecords.backoff(this.context)).isZero();
		RetryRecords.waited(this.context, Duration.ofMillis(1_500));
		RetryRecords.waited(this.context, Duration.ofMillis(2_250));
		assertThat(RetryRecords.backoff(this.context)).isEqualTo(Duration.ofMillis(3_750));
	}

	@Test
	void theDeadlineIsWhatWasRecorded() {
		assertThat(RetryRecords.deadline(this.context)).isNull();
		RetryDeadline deadline = RetryDeadline.startingNow(new VirtualTime(), Duration.ofSeconds(5));
		RetryRecords.started(this.context, deadline);
		assertThat(RetryRecords.deadline(this.context)).isSameAs(deadline);
	}

	@Test
	void outcomesAreWhatWasRecorded() {
		assertThat(RetryRecords.failureOutcome(this.context)).isEqualTo(CallOutcome.NON_RETRYABLE);
		RetryRecords.stopped(this.context, CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		assertThat(RetryRecords.failureOutcome(this.context)).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
	}

	@Test
	void theStartersPoliciesKeepTheDeadlineInATypedContextNotInItsAttributes() {
		VirtualTime time = new VirtualTime();
		for (RetryPolicies policies : List.of(RetryPolicies.retrying(RetrySettings.DEFAULTS, time.runtime(TestRandoms.unused()), null),
				RetryPolicies.singleAttempt(RetrySettings.DEFAULTS, time.runtime(TestRandoms.unused())))) {
			RetryContext context = policies.retry().open(null);
			policies.backOff().start(context);
			RetryRecords.stopped(context, CallOutcome.DEADLINE_EXCEEDED);
			assertThat(context.attributeNames()).isEmpty();
			assertThat(RetryRecords.deadline(context)).isNotNull()
				.satisfies((deadline) -> assertThat(deadline.remaining()).isEqualTo(RetrySettings.DEFAULTS.deadline()));
			assertThat(RetryRecords.failureOutcome(context)).isEqualTo(CallOutcome.DEADLINE_EXCEEDED);
		}
	}

}
