package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet harness runs, tiny: two seconds of load with a five-second deadline. Its figures are read in
 * the full run, not asserted here.
 */
class FleetHarnessSmokeTests {

	@Test
	void runsTinyAndPrintsItsTables() throws Exception {
		String report = FleetHarness.report(2, 1200, Duration.ofSeconds(5));
		System.out.println(report);
		assertThat(report).contains("defaults (retries, breaker, no limiter)", "quota limiter on",
				"time to fail closed once open");
	}

}
