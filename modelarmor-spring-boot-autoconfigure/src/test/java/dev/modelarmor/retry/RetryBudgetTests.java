package dev.modelarmor.retry;

import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.retry.support.RetryTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gRPC-style retry budget: its arithmetic, and retries through a real RetryTemplate stopping with
 * outcome budget_exhausted while the bucket is below half.
 */
class RetryBudgetTests {

	private final VirtualTime time = new VirtualTime();

	@Test
	void startsFullAndStopsRetriesAtHalf() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(10, 0.1));

		for (int i = 0; i < 4; i++) {
			budget.onRetryableFailure();
		}
		assertThat(budget.tokens()).isEqualTo(6.0);
		assertThat(budget.allowsRetry()).isTrue();
		budget.onRetryableFailure();
		assertThat(budget.tokens()).isEqualTo(5.0);
		assertThat(budget.allowsRetry()).as("at exactly half").isFalse();
		budget.onSuccess();
		assertThat(budget.allowsRetry()).isTrue();
	}

	@Test
	void aResetFillsTheBucketAgain() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(10, 0.1));
		for (int i = 0; i < 10; i++) {
			budget.onRetryableFailure();
		}
		assertThat(budget.allowsRetry()).isFalse();
		budget.reset();
		assertThat(budget.tokens()).isEqualTo(10.0);
		assertThat(budget.allowsRetry()).isTrue();
	}

	@Test
	void neverBelowZeroNorAboveTheTop() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(3, 1));
		for (int i = 0; i < 10; i++) {
			budget.onRetryableFailure();
		}
		assertThat(budget.tokens()).isZero();
		for (int i = 0; i < 10; i++) {
			budget.onSuccess();
		}
		assertThat(budget.tokens()).isEqualTo(3.0);
	}

	@ParameterizedTest
	@CsvSource({ "0, 0.1, budget.max-tokens", "1001, 0.1, budget.max-tokens", "10, 0, budget.token-ratio",
			"10, 1.5, budget.token-ratio", "10, -0.1, budget.token-ratio" })
	void rejectsWhatGrpcRejects(int maxTokens, double tokenRatio, String setting) {
		assertThatThrownBy(() -> new RetryBudgetSettings(maxTokens, tokenRatio))
			.isInstanceOfSatisfying(InvalidSettingException.class, (ex) -> assertThat(ex.setting()).isEqualTo(setting));
	}

	@Test
	void aLongOutageDrainsTheBudgetAndEndsRetryingWithBudgetExhausted() {
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(
				RetrySettings.DEFAULTS.withBudget(new RetryBudgetSettings(10, 0.1)),
				this.time.runtime(new SplittableRandom(3)));
		ScriptedCall outage = ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(503));

		assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(
				() -> retrying.execute(outage, (context) -> {
					assertThat(RetryRecords.failureOutcome(context)).isEqualTo(CallOutcome.BUDGET_EXHAUSTED);
					throw (TestHttpFailure) context.getLastThrowable();
				}));
		// 10 tokens: five failures leave five, which is not more than half; without a budget it would be six.
		assertThat(outage.attempts()).isEqualTo(5);
		assertThat(this.time.sleeps()).hasSize(4);

		ScriptedCall next = ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(503));
		assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(() -> retrying.execute(next));
		assertThat(next.attempts()).as("the drained budget allows no retry").isEqualTo(1);
	}

	@Test
	void successesRefillTheBudget() {
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(
				RetrySettings.DEFAULTS.withBudget(new RetryBudgetSettings(10, 0.5)),
				this.time.runtime(new SplittableRandom(3)));
		assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(() -> retrying
			.execute(ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(503))));

		// Drained to 5 of 10; three successes give back 1.5. The next failure takes one (5.5 > 5): a retry may start.
		for (int i = 0; i < 3; i++) {
			retrying.execute(ScriptedCall.failingThenSucceeding(this.time, java.util.List.of()));
		}
		ScriptedCall afterRefill = ScriptedCall.failingThenSucceeding(this.time,
				java.util.List.of(() -> TestHttpFailure.status(503)));
		assertThat(retrying.execute(afterRefill)).isEqualTo(ScriptedCall.RESULT);
		assertThat(afterRefill.attempts()).isEqualTo(2);
	}

	@Test
	void nonRetryableFailuresDoNotDrainTheBudget() {
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(
				RetrySettings.DEFAULTS.withBudget(new RetryBudgetSettings(4, 0.1)),
				this.time.runtime(new SplittableRandom(3)));
		// Four 503s would drain 4 tokens; four 400s take none, so a 503 still leaves 3 of 4 (more than half).
		for (int i = 0; i < 4; i++) {
			assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(() -> retrying
				.execute(ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(400))));
		}
		ScriptedCall transient503 = ScriptedCall.failingThenSucceeding(this.time,
				java.util.List.of(() -> TestHttpFailure.status(503)));
		assertThat(retrying.execute(transient503)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.totalSlept()).isGreaterThan(Duration.ZERO);
	}

}
