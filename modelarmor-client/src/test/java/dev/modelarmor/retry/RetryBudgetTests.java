package dev.modelarmor.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.retry.support.RetryTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The retry budget proportional to traffic: its arithmetic in virtual time, and, through a real RetryTemplate
 * with the default settings, that a single call and a 30 % flapping server keep Google's strategy while a
 * sustained storm is held to about 1.2 × the calls.
 */
class RetryBudgetTests {

	private static final String L = "us-central1";

	/** The shape before the failure rate decided: the ratio and the floor hold every retry. */
	private static final RetryBudgetSettings ALWAYS = new RetryBudgetSettings(0.2, 10, Duration.ofSeconds(10));

	private final VirtualTime time = new VirtualTime();

	@Test
	void aQuietClientHasTheFloorOfItsWindow() {
		RetryBudget budget = new RetryBudget(ALWAYS, this.time);
		assertThat(budget.tokens(L)).isEqualTo(100.0);
		for (int i = 0; i < 100; i++) {
			assertThat(budget.tryRetry(L, false)).as("retry %d", i).isTrue();
		}
		assertThat(budget.tryRetry(L, false)).isFalse();
		assertThat(budget.tokens(L)).isZero();
	}

	@Test
	void callsAddTheirShareAndTheWindowForgets() {
		RetryBudget budget = new RetryBudget(new RetryBudgetSettings(0.2, 0, Duration.ofSeconds(10)), this.time);
		assertThat(budget.tryRetry(L, false)).as("no calls, no floor").isFalse();
		for (int i = 0; i < 10; i++) {
			budget.onCall(L);
		}
		assertThat(budget.tryRetry(L, false)).isTrue();
		assertThat(budget.tryRetry(L, false)).isTrue();
		assertThat(budget.tryRetry(L, false)).as("20 % of 10 calls").isFalse();
		this.time.advance(Duration.ofSeconds(9));
		assertThat(budget.tryRetry(L, false)).as("still in the window").isFalse();
		this.time.advance(Duration.ofSeconds(1));
		budget.onCall(L);
		budget.onCall(L);
		budget.onCall(L);
		budget.onCall(L);
		budget.onCall(L);
		assertThat(budget.tryRetry(L, false)).as("the old calls and retries are forgotten").isTrue();
		assertThat(budget.tryRetry(L, false)).isFalse();
	}

	@Test
	void tooManyRequestsHaveAFloorOfOneASecond() {
		RetryBudget budget = new RetryBudget(ALWAYS, this.time);
		for (int i = 0; i < 10; i++) {
			assertThat(budget.tryRetry(L, true)).as("429 retry %d", i).isTrue();
		}
		assertThat(budget.tryRetry(L, true)).isFalse();
		assertThat(budget.tryRetry(L, false)).as("a 5xx still has the rest of the floor").isTrue();
	}

	@Test
	void aResetForgetsEveryRetry() {
		RetryBudget budget = new RetryBudget(ALWAYS, this.time);
		while (budget.tryRetry(L, false)) {
			// spend it
		}
		budget.reset();
		assertThat(budget.tokens(L)).isEqualTo(100.0);
	}

	@ParameterizedTest
	@CsvSource({ "-0.1, 10, 10, budget.retry-ratio", "10.5, 10, 10, budget.retry-ratio",
			"0.2, -1, 10, budget.min-retries-per-second", "0.2, 10001, 10, budget.min-retries-per-second",
			"0.2, 10, 0, budget.window", "0.2, 10, 601, budget.window" })
	void rejectsWhatCannotWork(double ratio, int floor, int seconds, String setting) {
		assertThatThrownBy(() -> new RetryBudgetSettings(ratio, floor, Duration.ofSeconds(seconds)))
			.isInstanceOfSatisfying(InvalidSettingException.class, (ex) -> assertThat(ex.setting()).isEqualTo(setting));
		assertThatThrownBy(() -> new RetryBudgetSettings(0.2, 10, Duration.ofMillis(1500)))
			.isInstanceOf(InvalidSettingException.class);
	}

	@Test
	void aSingleCallWithTheDefaultsGetsGooglesFullScheduleThroughEveryRetryableStatus() {
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS.withBudget(RetryBudgetSettings.DEFAULTS),
				this.time.runtime(new SplittableRandom(7)));
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(() -> TestHttpFailure.status(500),
				() -> TestHttpFailure.status(502), () -> TestHttpFailure.status(503), () -> TestHttpFailure.status(504)));

		assertThat(retrying.execute(call)).isEqualTo(ScriptedCall.RESULT);

		assertThat(call.attempts()).isEqualTo(5);
		List<Duration> waits = this.time.sleeps();
		assertThat(waits).hasSize(4);
		for (int n = 0; n < 4; n++) {
			long base = 1000L << n;
			assertThat(waits.get(n).toMillis()).as("wait before retry %d", n).isBetween(base, base + 1000);
		}
	}

	@Test
	void aSingleCallInAnOutageRetriesUntilItsDeadlineNotItsBudget() {
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS.withBudget(RetryBudgetSettings.DEFAULTS),
				this.time.runtime(new SplittableRandom(7)));
		ScriptedCall outage = ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(503));
		assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(() -> retrying.execute(outage, (context) -> {
			assertThat(RetryRecords.failureOutcome(context)).isEqualTo(CallOutcome.DEADLINE_EXCEEDED);
			throw (TestHttpFailure) context.getLastThrowable();
		}));
		// 1, 2, 4, 8, 16 s (+ up to 1 s each) fit in 60 s; the next 32 s does not
		assertThat(outage.attempts()).isEqualTo(6);

		ScriptedCall next = ScriptedCall.failingThenSucceeding(this.time, List.of(() -> TestHttpFailure.status(503),
				() -> TestHttpFailure.status(503)));
		assertThat(retrying.execute(next)).as("the next call still retries").isEqualTo(ScriptedCall.RESULT);
	}

	@Test
	void aServerFlappingAtThirtyPercentCostsGooglesStrategyAboutOnePointFourThreeRequestsPerCallAndFailsNone() {
		// one client, 20 calls a second in virtual time, each attempt failing at random with 30 % 503s
		RetryBudget budget = new RetryBudget(RetryBudgetSettings.DEFAULTS, this.time);
		SplittableRandom server = new SplittableRandom(11);
		RetryTemplate retrying = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, this.time.runtime(new SplittableRandom(5)),
				budget);
		int calls = 2400;
		int[] requests = { 0 };
		List<CallOutcome> failures = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			Duration before = this.time.totalSlept();
			ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying, (attempt) -> {
				requests[0]++;
				if (server.nextDouble() < 0.3) {
					throw TestHttpFailure.status(503);
				}
				return "ok";
			});
			if (retried.failure() != null) {
				failures.add(retried.outcome());
			}
			this.time.advance(Duration.ofMillis(50));
			assertThat(this.time.totalSlept().minus(before)).isLessThan(RetrySettings.DEFAULTS.deadline());
		}
		assertThat((double) requests[0] / calls).isCloseTo(1 / 0.7, org.assertj.core.data.Offset.offset(0.05));
		// the budget stops none; only six 503s in a row (0.3^6 of calls) reach the deadline
		assertThat(failures).doesNotContain(CallOutcome.BUDGET_EXHAUSTED).hasSizeLessThanOrEqualTo(8);
	}

	@Test
	void aSustainedStormOfFailuresIsHeldToTheRatioAndTheFloor() {
		RetryBudget budget = new RetryBudget(ALWAYS, this.time);
		// 60 s of 20 calls a second meeting only 429s: without a budget each would make ~6 attempts
		List<CallOutcome> outcomes = new ArrayList<>();
		int requests = 0;
		for (int second = 0; second < 60; second++) {
			for (int i = 0; i < 20; i++) {
				ScriptedCall storm = ScriptedCall.alwaysFailing(new VirtualTime(), tooMany());
				// each call's waits in a clock of its own, the client's window in the shared one
				RetryTemplate own = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS,
						new RetryRuntime(this.time, (millis) -> { }, new SplittableRandom(i)), budget);
				assertThatExceptionOfType(TestHttpFailure.class).isThrownBy(() -> own.execute(storm, (context) -> {
					outcomes.add(RetryRecords.failureOutcome(context));
					throw (TestHttpFailure) context.getLastThrowable();
				}));
				requests += storm.attempts();
			}
			this.time.advance(Duration.ofSeconds(1));
		}
		// 1,200 calls; retries at most 20 % of them plus 1 a second for 429s: 240 + 60 (+ the first window's floor)
		assertThat(requests).isBetween(1200 + 240, 1200 + 240 + 80);
		assertThat(outcomes).contains(CallOutcome.BUDGET_EXHAUSTED);
	}

	private static Supplier<RuntimeException> tooMany() {
		return () -> TestHttpFailure.status(429);
	}

}
