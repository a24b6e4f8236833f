package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.retry.InvalidSettingException;

/**
 * When the circuit breaker around Model Armor calls opens and how it closes again. It counts HTTP
 * attempts, not calls: the last {@code windowSize} attempts, and when at least {@code failureRateThreshold}
 * percent of them failed (a 5xx, no answer, a timeout), it opens: attempts are refused at once (outcome
 * {@code circuit_open}) for {@code waitInOpenState}, then {@code halfOpenProbes} attempts go through, and
 * their failure rate decides whether it closes or opens again.
 *
 * @param failureRateThreshold the percentage of failed attempts that opens the breaker, above 0 and at most 100
 * @param windowSize the attempts over which the failure rate is computed (also the fewest before it can
 * open), from 2 to 10,000
 * @param waitInOpenState how long the breaker stays open before it lets probes through, from 1 ms to 1 hour
 * @param halfOpenProbes the attempts let through while half-open, from 1 to 100
 */
public record CircuitBreakerSettings(float failureRateThreshold, int windowSize, Duration waitInOpenState,
		int halfOpenProbes) {

	/** Opens at 50% failures over 20 attempts, stays open 10 s, then 3 probes. */
	public static final CircuitBreakerSettings DEFAULTS = new CircuitBreakerSettings(50, 20, Duration.ofSeconds(10), 3);

	/**
	 * Rejects values the breaker cannot work with, naming the setting.
	 */
	public CircuitBreakerSettings {
		Objects.requireNonNull(waitInOpenState, "waitInOpenState");
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
	}

}
