package dev.modelarmor.resilience;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryBudgetSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Google's strategy with every default (the retry budget's and the circuit breaker's) at a busy instance's
 * rates, in virtual time through the starter's own retry code ({@link FleetSimulation}): a server flapping at
 * 30 % costs no call but Google's own tail at 20, 100 and 1,000 calls/s; a 3 s blip costs none; a sustained
 * storm of 503s or of 429s reaches Model Armor at no more than 1.5 times the offered load; and an outage in
 * one location never touches the calls to another.
 */
class FleetDefaultsTests {

	private static final String US = "us-central1";

	private static final String EU = "europe-west4";

	@ParameterizedTest(name = "{0} calls/s")
	@ValueSource(ints = { 20, 100, 1000 })
	void aServerFlappingAtThirtyPercentCostsNoCallButGooglesOwnTail(int rate) {
		SplittableRandom server = new SplittableRandom(rate);
		FleetSimulation.Run run = FleetSimulation.withDefaults(7)
			.run(rate, 15, List.of(US), (location, t) -> (server.nextDouble() < 0.3) ? 503 : 200)
			.get(US);
		assertThat(run.failedWith(CallOutcome.BUDGET_EXHAUSTED)).as(run.toString()).isZero();
		assertThat(run.failedWith(CallOutcome.CIRCUIT_OPEN)).as(run.toString()).isZero();
		assertThat(run.firstOpenAt).as("the breaker never opens").isNegative();
		// Google's own tail: six 503s in a row (0.3^6 of calls) leave no room for a seventh attempt in 60 s
		double tail = run.calls * Math.pow(0.3, 6);
		assertThat(run.failed).as(run.toString()).isLessThanOrEqualTo((int) (3 * tail) + 3);
		assertThat(run.requestsPerCall()).as(run.toString()).isBetween(1.40, 1.46);
	}

	@ParameterizedTest(name = "{0} calls/s")
	@ValueSource(ints = { 20, 100, 1000 })
	void aThreeSecondBlipCostsNoCall(int rate) {
		for (double blipStart : new double[] { 0, 10 }) {
			FleetSimulation.Run run = FleetSimulation.withDefaults(9)
				.run(rate, 20, List.of(US), (location, t) -> (t >= blipStart && t < blipStart + 3) ? 503 : 200)
				.get(US);
			assertThat(run.failed).as("blip at %s s: %s", blipStart, run).isZero();
			assertThat(run.firstOpenAt).as("the breaker never opens").isNegative();
		}
	}

	@ParameterizedTest(name = "{0} calls/s")
	@ValueSource(ints = { 20, 100, 1000 })
	void aSustainedStormOfServiceUnavailableReachesModelArmorAtMostOneAndAHalfTimesTheOfferedLoad(int rate) {
		FleetSimulation.Run withBreaker = FleetSimulation.withDefaults(3)
			.run(rate, 60, List.of(US), (location, t) -> 503)
			.get(US);
		assertThat(withBreaker.requestsPerCall()).as(withBreaker.toString()).isLessThanOrEqualTo(1.5);
		assertThat(withBreaker.firstOpenAt).as("open within 15 s").isBetween(0.0, 15.0);
		// the budget alone, as before the breaker has opened (or with it disabled)
		FleetSimulation.Run budgetOnly = new FleetSimulation(3, RetryBudgetSettings.DEFAULTS, null)
			.run(rate, 60, List.of(US), (location, t) -> 503)
			.get(US);
		assertThat(budgetOnly.requestsPerCall()).as(budgetOnly.toString()).isLessThanOrEqualTo(1.5);
		assertThat(budgetOnly.failedWith(CallOutcome.BUDGET_EXHAUSTED)).as(budgetOnly.toString()).isPositive();
	}

	@ParameterizedTest(name = "{0} calls/s")
	@ValueSource(ints = { 20, 100, 1000 })
	void aStormOfTooManyRequestsAtThreeTimesTheQuotaReachesModelArmorAtMostOneAndAHalfTimesTheOfferedLoad(int rate) {
		// the quota serves a third of the offered load each second and answers 429 to the rest; no limiter
		int quotaPerSecond = rate / 3;
		int[] servedInSecond = { 0 };
		long[] second = { -1 };
		FleetSimulation.Run run = FleetSimulation.withDefaults(5).run(rate, 60, List.of(US), (location, t) -> {
			long now = (long) Math.floor(t);
			if (now != second[0]) {
				second[0] = now;
				servedInSecond[0] = 0;
			}
			return (servedInSecond[0]++ < quotaPerSecond) ? 200 : 429;
		}).get(US);
		assertThat(run.requestsPerCall()).as(run.toString()).isLessThanOrEqualTo(1.5);
		assertThat(run.firstOpenAt).as("429s never open the breaker").isNegative();
	}

	@Test
	void anOutageInOneLocationNeverTouchesTheCallsToAnother() {
		// 20 calls/s to each location; europe-west4 answers 503 from 10 s to 70 s
		FleetSimulation simulation = FleetSimulation.withDefaults(11);
		Map<String, FleetSimulation.Run> runs = simulation.run(40, 120, List.of(US, EU),
				(location, t) -> (location.equals(EU) && t >= 10 && t < 70) ? 503 : 200);
		FleetSimulation.Run healthy = runs.get(US);
		FleetSimulation.Run failing = runs.get(EU);
		assertThat(healthy.failed).as(healthy.toString()).isZero();
		assertThat(healthy.requests).as("one request per call: no retries spent").isEqualTo(healthy.calls);
		assertThat(healthy.firstOpenAt).as("its breaker never opens").isNegative();
		assertThat(healthy.slowestMillis).as("never delayed").isZero();
		assertThat(failing.firstOpenAt - 10).as("the failing location's breaker opens within 15 s").isBetween(0.0, 15.0);
		assertThat(failing.failedWith(CallOutcome.CIRCUIT_OPEN)).as(failing.toString()).isGreaterThan(500);
		assertThat(failing.closedAgainAt).as("it recovers alone").isBetween(70.0, 70 + 10 + 3.0);
		assertThat(failing.lastFailedStartAt).as("no call after recovery fails").isLessThan(83.0);
	}

}
