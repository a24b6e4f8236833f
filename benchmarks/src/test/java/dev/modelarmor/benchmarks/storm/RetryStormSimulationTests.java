package dev.modelarmor.benchmarks.storm;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.modelarmor.benchmarks.storm.RetryStormSimulation.Result;
import dev.modelarmor.benchmarks.storm.RetryStormSimulation.Scenario;
import dev.modelarmor.retry.JitterMode;
import dev.modelarmor.retry.RetrySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tiny retry storm: the invariants every run must keep, and the point of the other jitter modes.
 */
class RetryStormSimulationTests {

	private static Scenario tiny(long seed) {
		return new Scenario(300, Duration.ofSeconds(10), 30, Duration.ofMillis(50), Duration.ofSeconds(1),
				RetrySettings.DEFAULTS, seed);
	}

	@ParameterizedTest
	@ValueSource(longs = { 1, 2, 3 })
	void everyClientEndsAndEveryCallIsCountedInEveryStrategy(long seed) {
		for (RetrySettings settings : RetryStormSimulation.strategies(RetrySettings.DEFAULTS)) {
			Result result = RetryStormSimulation.run(tiny(seed).with(settings));
			assertThat(result.succeeded() + result.gaveUpAtDeadline() + result.gaveUpOnBudget())
				.as(result.label()).isEqualTo(300);
			assertThat(result.totalCalls()).as(result.label()).isGreaterThanOrEqualTo(300);
			long perSlot = 0;
			for (long calls : result.callsPerSlot()) {
				perSlot += calls;
			}
			assertThat(perSlot).as("calls per slot add up").isEqualTo(result.totalCalls());
			// No call outlives its deadline: the last wait ends by 60 s after a first attempt in [0, 1 s).
			assertThat(result.settledAt()).isLessThanOrEqualTo(Duration.ofSeconds(61).plusMillis(50));
			if (settings.budget() == null) {
				assertThat(result.gaveUpOnBudget()).isZero();
			}
			else {
				assertThat(result.totalCalls()).as("the budget never adds calls")
					.isLessThanOrEqualTo(RetryStormSimulation.run(tiny(seed).with(new RetrySettings(settings.schedule(),
						settings.deadline(), true, true, null, settings.jitterMode()))).totalCalls());
			}
		}
	}

	@ParameterizedTest
	@ValueSource(longs = { 1, 2, 3 })
	void fullAndDecorrelatedJitterSpreadTheLoadAfterRecoveryMoreThanTheSeedFormula(long seed) {
		Map<JitterMode, Result> results = new EnumMap<>(JitterMode.class);
		for (JitterMode mode : JitterMode.values()) {
			results.put(mode, RetryStormSimulation.run(tiny(seed).with(RetrySettings.DEFAULTS.withJitterMode(mode))));
		}
		long seedPeak = results.get(JitterMode.GOOGLE).peakCallsPerSecondAfterRecovery();
		assertThat(results.get(JitterMode.FULL).peakCallsPerSecondAfterRecovery()).isLessThan(seedPeak);
		assertThat(results.get(JitterMode.DECORRELATED).peakCallsPerSecondAfterRecovery()).isLessThan(seedPeak);
		assertThat(results.get(JitterMode.FULL).succeeded()).isGreaterThan(results.get(JitterMode.GOOGLE).succeeded());
	}

	@Test
	void theSameSeedGivesTheSameRun() {
		Scenario scenario = tiny(7).with(RetrySettings.DEFAULTS.withJitterMode(JitterMode.DECORRELATED));
		Result first = RetryStormSimulation.run(scenario);
		Result second = RetryStormSimulation.run(scenario);
		assertThat(second.totalCalls()).isEqualTo(first.totalCalls());
		assertThat(second.callsPerSlot()).isEqualTo(first.callsPerSlot());
		assertThat(second.settledAt()).isEqualTo(first.settledAt());
	}

	@Test
	void peakPerSecondIsASlidingSumOfTenSlotsFromRecovery() {
		long[] slots = { 100, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0 };
		assertThat(RetryStormSimulation.peakPerSecond(slots, 2)).isEqualTo(55);
	}

	@Test
	void drawsAChart() {
		List<Result> results = new ArrayList<>();
		for (RetrySettings settings : RetryStormSimulation.strategies(RetrySettings.DEFAULTS)) {
			results.add(RetryStormSimulation.run(tiny(1).with(settings)));
		}
		BufferedImage chart = RetryStormReport.chart(results, tiny(1));
		assertThat(chart.getWidth()).isPositive();
		assertThat(results.stream().map(Result::label).collect(Collectors.toSet())).hasSize(6);
	}

}
