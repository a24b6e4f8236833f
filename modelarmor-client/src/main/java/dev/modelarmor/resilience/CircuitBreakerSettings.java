package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.retry.InvalidSettingException;

/**
 * When the circuit breaker around Model Armor calls opens and how it closes again. It counts calls, not
 * attempts, each once: a success as soon as Model Armor answers it (any answer but a 429 or a 5xx), a failure
 * once its attempts have failed (a 5xx, no answer, a timeout) for {@code failingFor} or it ended failed. A
 * call that meets only 429s is not counted. Over the last {@code windowSize} calls, when at least
 * {@code failureRateThreshold} percent failed, it opens: attempts are refused at once (outcome
 * {@code circuit_open}) for {@code waitInOpenState}, then {@code halfOpenProbes} calls go through, and their
 * failure rate decides whether it closes or opens again.
 *
 * <p>So a blip shorter than {@code failingFor} never counts against it (Google's waits bring every call past
 * it: 1 s + 2 s before the third attempt), random failure counts only when a call's first attempts all fail
 * (2.7 % of calls at 30 % random 503s), and a sustained outage counts every call a few seconds after it
 * starts.
 *
 * @param failureRateThreshold the percentage of failed calls that opens the breaker, above 0 and at most 100
 * @param windowSize the calls over which the failure rate is computed (also the fewest before it can open),
 * from 2 to 10,000
 * @param waitInOpenState how long the breaker stays open before it lets probes through, from 1 ms to 1 hour
 * @param halfOpenProbes the calls let through while half-open, from 1 to 100
 * @param failingFor how long a call's attempts must have been failing before it counts as a failure, from 0 to
 * 1 hour
 */
public record CircuitBreakerSettings(float failureRateThreshold, int windowSize, Duration waitInOpenState,
		int halfOpenProbes, Duration failingFor) {

	/**
	 * Opens at 50 % failed calls over 100 (Resilience4j's window), a call failing once it has failed for 3 s;
	 * stays open 10 s, then 3 probes.
	 */
	public static final CircuitBreakerSettings DEFAULTS = new CircuitBreakerSettings(50, 100, Duration.ofSeconds(10), 3,
			Duration.ofSeconds(3));

	/**
	 * Rejects values the breaker cannot work with, naming the setting.
	 */
	public CircuitBreakerSettings {
		Objects.requireNonNull(waitInOpenState, "waitInOpenState");
		Objects.requireNonNull(failingFor, "failingFor");
		if (!(failureRateThreshold > 0 && failureRateThreshold <= 100)) {
			throw new InvalidSettingException("failure-rate-threshold", failureRateThreshold,
					"must be more than 0 and at most 100 (a percentage)");
		}
		if (windowSize < 2 || windowSize > 10_000) {
			throw new InvalidSettingException("window-size", windowSize, "must be from 2 to 10000");
		}
		if (waitInOpenState.compareTo(Duration.ofMillis(1)) < 0 || waitInOpenState.compareTo(Duration.ofHours(1)) > 0) {
			throw new InvalidSettingException("wait-in-open-state", waitInOpenState, "must be from 1ms to 1h");
		}
		if (halfOpenProbes < 1 || halfOpenProbes > 100) {
			throw new InvalidSettingException("half-open-probes", halfOpenProbes, "must be from 1 to 100");
		}
		if (failingFor.isNegative() || failingFor.compareTo(Duration.ofHours(1)) > 0) {
			throw new InvalidSettingException("failing-for", failingFor, "must be from 0 to 1h");
		}
	}

	/**
	 * Settings under which a call counts as failed at its first failed attempt ({@code failingFor} zero).
	 * @param failureRateThreshold the percentage of failed calls that opens the breaker
	 * @param windowSize the calls over which the failure rate is computed
	 * @param waitInOpenState how long the breaker stays open
	 * @param halfOpenProbes the calls let through while half-open
	 */
	public CircuitBreakerSettings(float failureRateThreshold, int windowSize, Duration waitInOpenState,
			int halfOpenProbes) {
		this(failureRateThreshold, windowSize, waitInOpenState, halfOpenProbes, Duration.ZERO);
	}

}
