package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet harness runs, tiny: two seconds of load with a five-second deadline. Its figures are read in
 * the full run ({@code -Dfleet.seconds=60 -Dfleet.deadline=60}, or {@link FleetHarness#main}), not asserted here.
 */
class FleetHarnessSmokeTests {

	@Test
	void runsTinyAndPrintsItsTables() throws Exception {
		String report = FleetHarness.report(Integer.getInteger("fleet.seconds", 2), 1200,
				Duration.ofSeconds(Integer.getInteger("fleet.deadline", 5)));
		System.out.println(report);
		assertThat(report).contains("the defaults before", "defaults (retries with the retry budget", "quota limiter on",
				"time to fail closed once open");
	}

}
