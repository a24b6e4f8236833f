package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;

import dev.modelarmor.testredis.RedisServerProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The fleet harness runs, tiny: a few seconds of load with a five-second deadline, and its tables have
 * their shape and sane figures. Its speed is read in the full run ({@code -Dfleet.seconds=60
 * -Dfleet.deadline=60}, or {@link FleetHarness#main}), not asserted here. Skipped without redis-server,
 * except in CI, which installs it.
 */
class FleetHarnessSmokeTests {

	@Test
	void runsTinyAndPrintsItsTables() throws Exception {
		assumeThat(RedisServerProcess.available()).as("redis-server is installed").isTrue();
		String report = FleetHarness.report(Integer.getInteger("fleet.seconds", 3), 1200,
				Duration.ofSeconds(Integer.getInteger("fleet.deadline", 5)));
		System.out.println(report);
		assertThat(report).contains("the defaults before", "defaults (retries with the retry budget",
				"quota limiter on, shared through Redis", "time to fail closed once open", "stalled (SIGSTOP)",
				"| stopped |");
		assertThat(report).as("every call ended with a result or a ModelArmorException")
			.doesNotContain("exception other than");
		// Google's strategy with the defaults, one application: the budget and the breaker leave it alone
		assertThat(cell(row(report, "single call in a fresh application"), 3)).startsWith("5 attempts, waits ")
			.contains("all within the formula")
			.endsWith("success");
		assertThat(cell(row(report, "blip: 503 to everything for 3 s"), 3)).contains(" 0 failed", "breaker stayed closed");
		assertThat(cell(row(report, "flapping: 30 % random 503s"), 3)).contains("breaker stayed closed");
		assertLimited(report, "quota limiter on, shared through Redis");
		if (Integer.getInteger("fleet.seconds", 3) >= FleetHarness.FULL_RUN_SECONDS) {
			assertLimited(report, "modelarmor.quota.redis-timeout=1s");
		}
		assertThat(Double.parseDouble(cell(row(report, "no budget, no limiter"), 4))).as("the defaults before, x quota")
			.isGreaterThan(1.5);
		assertThat(Integer.parseInt(cell(row(report, "calls failed circuit_open"), 2)))
			.as("calls failed circuit_open once the breakers were open").isGreaterThan(900);
		assertThat(Integer.parseInt(cell(row(report, "requests Model Armor got while open"), 2))).isLessThan(30);
	}

	/**
	 * The load a limiter row let reach Model Armor: at most 1.5 x the quota in a tiny run (a full bucket at
	 * the start, then the refill), unless the row says that it fell back to in-process buckets, as a Redis
	 * operation over its timeout on a loaded machine makes it.
	 */
	private static void assertLimited(String report, String name) {
		double timesQuota = Double.parseDouble(cell(row(report, name), 4));
		boolean fellBack = report.lines().anyMatch((line) -> line.contains(name) && line.contains("fell back"));
		if (fellBack) {
			assertThat(timesQuota).as(name + ", x quota, with fallbacks").isGreaterThan(0.3);
		}
		else {
			assertThat(timesQuota).as(name + ", x quota").isGreaterThan(0.3).isLessThanOrEqualTo(1.5);
		}
	}

	private static String row(String report, String containing) {
		return report.lines()
			.filter((line) -> line.startsWith("|") && line.contains(containing))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no row with " + containing + " in\n" + report));
	}

	/** The n-th cell of a Markdown row, counted from 1. */
	private static String cell(String row, int n) {
		return row.split("\\|")[n].trim();
	}

}
