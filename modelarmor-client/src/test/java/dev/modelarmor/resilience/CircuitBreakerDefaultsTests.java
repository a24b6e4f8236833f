package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleFunction;

import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The circuit breaker with its default settings, in virtual time, driven through the gate by calls that follow
 * Google's schedule (waits of the default schedule, the 60 s deadline) at 20 calls a second: it stays closed
 * through a server flapping at 30 % and through a 3 s blip, and opens in a sustained outage within 15 s,
 * then closes on recovery.
 */
class CircuitBreakerDefaultsTests {

	private static final double CALLS_PER_SECOND = 20;

	private final VirtualTime time = new VirtualTime();

	private final ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test", CircuitBreakerSettings.DEFAULTS,
			this.time);

	private final ResilienceGate gate = new ResilienceGate(this.breaker, null, ResilienceObserver.NONE);

	@ParameterizedTest
	@ValueSource(longs = { 1, 2, 3, 4, 5 })
	void aServerFlappingAtThirtyPercentNeverOpensItAndEveryCallCompletes(long seed) {
		SplittableRandom server = new SplittableRandom(seed);
		Run run = run(2400, (t) -> (server.nextDouble() < 0.3) ? "503" : "200", seed);
		assertThat(run.everOpen).isFalse();
		assertThat(run.refused).isZero();
		// only the strategy's own end: six 503s in a row (0.3^6 of calls) reach the deadline
		assertThat(run.failed).isLessThanOrEqualTo(8);
		assertThat((double) run.requests / run.calls).isBetween(1.38, 1.48);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0, 10 })
	void aThreeSecondBlipNeitherOpensItNorFailsACall(double blipStart) {
		Run run = run(400, (t) -> (t >= blipStart && t < blipStart + 3) ? "503" : "200", 9);
		assertThat(run.everOpen).isFalse();
		assertThat(run.refused).isZero();
		assertThat(run.failed).isZero();
	}

	@Test
	void aSustainedOutageOpensItWithinFifteenSecondsAndRecoveryClosesIt() {
		// healthy for 10 s, 503 from 10 s to 70 s, healthy again after
		Run run = run(2000, (t) -> (t >= 10 && t < 70) ? "503" : "200", 3);
		assertThat(run.firstOpenAt - 10).as("seconds into the outage").isLessThan(15);
		assertThat(run.refusedDuringOutage).as("calls failed closed at once").isGreaterThan(500);
		assertThat(run.closedAgainAt).as("closed after the wait and the probes").isBetween(70.0, 70 + 10 + 3.0);
		assertThat(run.lastCallFailed).isFalse();
		assertThat(this.breaker.state()).isEqualTo("closed");
	}

	/** Calls every 1/20 s, each attempt's status from the server at its time; attempts of all calls interleave. */
	private Run run(int calls, DoubleFunction<String> server, long seed) {
		SplittableRandom jitter = new SplittableRandom(seed * 31);
		BackoffSchedule schedule = BackoffSchedule.GOOGLE_DEFAULT;
		long deadline = RetrySettings.DEFAULTS.deadline().toMillis();
		PriorityQueue<Attempt> attempts = new PriorityQueue<>();
		for (int i = 0; i < calls; i++) {
			long start = Math.round(i * 1000 / CALLS_PER_SECOND);
			attempts.add(new Attempt(start, new Call(start, this.gate.call("sanitize_user_prompt", "t", "us-central1")), 0));
		}
		Run run = new Run(calls);
		long now = 0;
		while (!attempts.isEmpty()) {
			Attempt attempt = attempts.poll();
			this.time.advance(Duration.ofMillis(attempt.at - now));
			now = attempt.at;
			double seconds = now / 1000.0;
			AttemptGate.Admission admission = attempt.call.admissions.admit(null);
			CallOutcome refusal = admission.refusal();
			if (refusal != null) {
				attempt.call.admissions.ended();
				run.failed++;
				run.refused++;
				if (seconds < 70) {
					run.refusedDuringOutage++;
				}
				run.lastCallFailed = true;
				observe(run, seconds);
				continue;
			}
			run.requests++;
			String status = server.apply(seconds);
			admission.ended(status);
			if (status.equals("200")) {
				attempt.call.admissions.ended();
				run.lastCallFailed = false;
			}
			else {
				// Google's formula with the default schedule: min(2^n s + U[0, 1 s], 32 s)
				long wait = Math.min((1000L << Math.min(attempt.retry, 20)) + jitter.nextLong(1001),
						schedule.maxBackoff().toMillis());
				if (now + wait - attempt.call.start < deadline) {
					attempts.add(new Attempt(now + wait, attempt.call, attempt.retry + 1));
				}
				else {
					attempt.call.admissions.ended();
					run.failed++;
					run.lastCallFailed = true;
				}
			}
			observe(run, seconds);
		}
		return run;
	}

	private void observe(Run run, double seconds) {
		String state = this.breaker.state();
		if (!state.equals("closed") && !run.everOpen) {
			run.everOpen = true;
			run.firstOpenAt = seconds;
		}
		if (run.everOpen && state.equals("closed") && run.closedAgainAt < 0) {
			run.closedAgainAt = seconds;
		}
	}

	private record Call(long start, AttemptGate.CallAdmissions admissions) {
	}

	private record Attempt(long at, Call call, int retry) implements Comparable<Attempt> {

		@Override
		public int compareTo(Attempt other) {
			return Long.compare(this.at, other.at);
		}

	}

	private static final class Run {

		final int calls;

		int requests;

		int failed;

		int refused;

		int refusedDuringOutage;

		boolean everOpen;

		boolean lastCallFailed;

		double firstOpenAt = -1;

		double closedAgainAt = -1;

		Run(int calls) {
			this.calls = calls;
		}

	}

}
