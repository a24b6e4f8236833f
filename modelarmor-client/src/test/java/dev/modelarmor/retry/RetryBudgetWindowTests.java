package dev.modelarmor.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retry budget's window in virtual time: seconds the window moved past are forgotten whichever slot the clock
 * lands on, the failure rate decides only past its threshold and after {@code failingFor}, and locations beyond
 * the budget's bound share one window.
 */
class RetryBudgetWindowTests {

	private static final String L = "us-central1";

	private final VirtualTime time = new VirtualTime();

	@Test
	void callsAndRetriesOfSecondsTheWindowMovedPastAreForgotten() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(0.2, 0, Duration.ofSeconds(10)), this.time);
		for (int i = 0; i < 10; i++) {
			budget.onCall(L);
		}
		assertThat(budget.tryRetry(L, false)).isTrue();
		assertThat(budget.tryRetry(L, false)).isTrue();
		assertThat(budget.tryRetry(L, false)).as("20 % of 10 calls").isFalse();
		// 15 s later the clock is on another slot than the one that holds the old second
		this.time.advance(Duration.ofSeconds(15));
		for (int i = 0; i < 5; i++) {
			budget.onCall(L);
		}
		assertThat(budget.tryRetry(L, false)).as("20 % of the 5 new calls, the old retries forgotten").isTrue();
		assertThat(budget.tryRetry(L, false)).as("the old calls forgotten too").isFalse();
	}

	@Test
	void failuresOfSecondsTheWindowMovedPastAreForgotten() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ZERO), this.time);
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS; i++) {
			budget.tryRetry(L, false);
		}
		assertThat(budget.isLimiting(L)).isTrue();
		this.time.advance(Duration.ofSeconds(15));
		assertThat(budget.isLimiting(L)).isFalse();
		assertThat(budget.tryRetry(L, false)).as("one failure in the window: no rate yet").isTrue();
	}

	@Test
	void successesOfSecondsTheWindowMovedPastAreForgotten() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ZERO), this.time);
		for (int i = 0; i < 60; i++) {
			budget.onSuccess(L);
		}
		this.time.advance(Duration.ofSeconds(15));
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS - 1; i++) {
			assertThat(budget.tryRetry(L, false)).as("failure %d, fewer attempts than judged", i).isTrue();
		}
		assertThat(budget.tryRetry(L, false)).as("50 failures of 50 attempts: limited to the ratio, no calls")
			.isFalse();
		assertThat(budget.isLimiting(L)).isTrue();
	}

	@Test
	void theRateDecidesOnlyAboveItsThresholdAndWithEnoughAttempts() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ZERO), this.time);
		for (int i = 0; i < 25; i++) {
			budget.onSuccess(L);
		}
		for (int i = 0; i < 24; i++) {
			budget.tryRetry(L, false);
		}
		assertThat(budget.isLimiting(L)).as("49 attempts").isFalse();
		assertThat(budget.tryRetry(L, false)).as("25 of 50 failed: at the threshold, not above it").isTrue();
		assertThat(budget.isLimiting(L)).isFalse();
		assertThat(budget.tryRetry(L, false)).as("26 of 51 failed: above it").isFalse();
		assertThat(budget.isLimiting(L)).isTrue();
	}

	@Test
	void limitingStartsOnlyOnceTheRateWasAboveForFailingForAndEndsWhenItFalls() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ofSeconds(3)), this.time);
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS; i++) {
			assertThat(budget.tryRetry(L, false)).isTrue();
		}
		assertThat(budget.isLimiting(L)).as("above since now").isFalse();
		this.time.advance(Duration.ofMillis(2999));
		assertThat(budget.tryRetry(L, false)).as("above for 2999 ms").isTrue();
		assertThat(budget.isLimiting(L)).isFalse();
		this.time.advance(Duration.ofMillis(1));
		assertThat(budget.isLimiting(L)).as("above for 3 s").isTrue();
		assertThat(budget.tryRetry(L, false)).isFalse();
		for (int i = 0; i < 200; i++) {
			budget.onSuccess(L);
		}
		assertThat(budget.isLimiting(L)).as("the rate fell below the threshold").isFalse();
		assertThat(budget.tryRetry(L, false)).isTrue();
	}

	@Test
	void anEpisodeTheWindowForgotStartsItsFailingForAgain() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ofSeconds(3)), this.time);
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS; i++) {
			budget.tryRetry(L, false);
		}
		this.time.advance(Duration.ofSeconds(11));
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS; i++) {
			assertThat(budget.tryRetry(L, false)).as("a new episode, above since now: failure %d", i).isTrue();
		}
	}

	@Test
	void aResetEndsLimiting() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ZERO), this.time);
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS; i++) {
			budget.tryRetry(L, false);
		}
		assertThat(budget.isLimiting(L)).isTrue();
		budget.reset();
		assertThat(budget.isLimiting(L)).isFalse();
		assertThat(budget.tryRetry(L, false)).isTrue();
	}

	@Test
	void aResetForgetsCallsAndSuccesses() {
		RetryBudget budget = new RetryBudget(limitingAtHalf(Duration.ZERO), this.time);
		for (int i = 0; i < 100; i++) {
			budget.onCall(L);
			budget.onSuccess(L);
		}
		budget.reset();
		for (int i = 0; i < RetryBudget.MINIMUM_ATTEMPTS - 1; i++) {
			assertThat(budget.tryRetry(L, false)).as("failure %d, fewer attempts than judged", i).isTrue();
		}
		assertThat(budget.tryRetry(L, false)).as("50 of 50 failed, and no calls left to share").isFalse();
	}

	@Test
	void aThresholdOfZeroJudgesEveryFailureUntilTheWindowForgetsThem() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(0.2, 0, Duration.ofSeconds(10)), this.time);
		assertThat(budget.isLimiting(L)).isFalse();
		assertThat(budget.tryRetry(L, false)).as("no calls, no floor").isFalse();
		assertThat(budget.isLimiting(L)).isTrue();
		this.time.advance(Duration.ofSeconds(15));
		assertThat(budget.isLimiting(L)).as("no failure left in the window").isFalse();
	}

	@Test
	void locationsBeyondTheBoundShareOneWindowAndListenersHearEachOnce() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(0.2, 1, Duration.ofSeconds(10)), this.time);
		budget.onCall("before");
		List<String> heard = new ArrayList<>();
		budget.onLocation(heard::add);
		assertThat(heard).containsExactly("before");
		for (int i = 1; i < RetryBudget.MAX_LOCATIONS; i++) {
			budget.onCall("l" + i);
			budget.onCall("l" + i);
		}
		assertThat(heard).hasSize(RetryBudget.MAX_LOCATIONS).doesNotContain("other");
		budget.onCall("beyond-1");
		budget.onCall("beyond-2");
		assertThat(heard).hasSize(RetryBudget.MAX_LOCATIONS + 1).endsWith("other");
		assertThat(budget.locations()).hasSize(RetryBudget.MAX_LOCATIONS + 1).contains("other")
			.doesNotContain("beyond-1", "beyond-2");
		assertThat(budget.tokens("other")).as("10 floor + 20 % of 2 calls").isEqualTo(10.4);
		assertThat(budget.tokens("never-seen")).as("a location never seen: the floor of the window").isEqualTo(10.0);
		assertThat(budget.isLimiting("never-seen")).isFalse();
	}

	private static RetryBudgetSettings limitingAtHalf(Duration failingFor) {
		return new RetryBudgetSettings(0.2, 0, Duration.ofSeconds(10), 50, failingFor);
	}

}
