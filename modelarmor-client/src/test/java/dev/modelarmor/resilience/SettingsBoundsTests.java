package dev.modelarmor.resilience;

import java.time.Duration;

import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.retry.RetryBudgetSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every documented bound of the breaker's, the quota's and the retry budget's settings holds at its edge and
 * refuses one step beyond it, naming the setting: an invalid property fails the start, a valid one never does.
 */
class SettingsBoundsTests {

	private static final Duration SECOND = Duration.ofSeconds(1);

	@Test
	void circuitBreakerBoundsAreInclusiveAsDocumented() {
		accepted(() -> breaker(100, 2, Duration.ofMillis(1), 1, Duration.ZERO));
		accepted(() -> breaker(0.01f, 10_000, Duration.ofHours(1), 100, Duration.ofHours(1)));
		refused("failure-rate-threshold", () -> breaker(0, 2, SECOND, 1, Duration.ZERO));
		refused("failure-rate-threshold", () -> breaker(100.01f, 2, SECOND, 1, Duration.ZERO));
		refused("window-size", () -> breaker(50, 1, SECOND, 1, Duration.ZERO));
		refused("window-size", () -> breaker(50, 10_001, SECOND, 1, Duration.ZERO));
		refused("wait-in-open-state", () -> breaker(50, 2, Duration.ofNanos(999_999), 1, Duration.ZERO));
		refused("wait-in-open-state", () -> breaker(50, 2, Duration.ofHours(1).plusNanos(1), 1, Duration.ZERO));
		refused("half-open-probes", () -> breaker(50, 2, SECOND, 0, Duration.ZERO));
		refused("half-open-probes", () -> breaker(50, 2, SECOND, 101, Duration.ZERO));
		refused("failing-for", () -> breaker(50, 2, SECOND, 1, Duration.ofNanos(-1)));
		refused("failing-for", () -> breaker(50, 2, SECOND, 1, Duration.ofHours(1).plusNanos(1)));
	}

	@Test
	void quotaBoundsAreInclusiveAsDocumented() {
		accepted(() -> new QuotaSettings(2, Duration.ZERO, Duration.ofMillis(1), 2));
		accepted(() -> new QuotaSettings(1_000_000, null, Duration.ofSeconds(10), 1_000_000));
		refused("queries-per-minute", () -> new QuotaSettings(1, null, Duration.ofMillis(100), 2));
		refused("queries-per-minute", () -> new QuotaSettings(1_000_001, null, Duration.ofMillis(100), 2));
		refused("max-wait", () -> new QuotaSettings(60, Duration.ofNanos(-1), Duration.ofMillis(100), 2));
		refused("redis-timeout", () -> new QuotaSettings(60, null, Duration.ofNanos(999_999), 2));
		refused("redis-timeout", () -> new QuotaSettings(60, null, Duration.ofSeconds(10).plusNanos(1), 2));
		refused("fallback-queries-per-minute", () -> new QuotaSettings(60, null, Duration.ofMillis(100), 1));
		refused("fallback-queries-per-minute", () -> new QuotaSettings(60, null, Duration.ofMillis(100), 61));
	}

	@Test
	void retryBudgetBoundsAreInclusiveAsDocumented() {
		accepted(() -> new RetryBudgetSettings(0, 0, SECOND, 0, Duration.ZERO));
		accepted(() -> new RetryBudgetSettings(10, 10_000, Duration.ofMinutes(10), 100, Duration.ofHours(1)));
		refused("budget.retry-ratio", () -> new RetryBudgetSettings(-0.001, 1, SECOND, 50, Duration.ZERO));
		refused("budget.retry-ratio", () -> new RetryBudgetSettings(10.001, 1, SECOND, 50, Duration.ZERO));
		refused("budget.min-retries-per-second", () -> new RetryBudgetSettings(0.2, -1, SECOND, 50, Duration.ZERO));
		refused("budget.min-retries-per-second", () -> new RetryBudgetSettings(0.2, 10_001, SECOND, 50, Duration.ZERO));
		refused("budget.window", () -> new RetryBudgetSettings(0.2, 1, Duration.ofMillis(999), 50, Duration.ZERO));
		refused("budget.window", () -> new RetryBudgetSettings(0.2, 1, Duration.ofMinutes(10).plusSeconds(1), 50,
				Duration.ZERO));
		refused("budget.window", () -> new RetryBudgetSettings(0.2, 1, Duration.ofMillis(1500), 50, Duration.ZERO));
		refused("budget.failure-rate-threshold", () -> new RetryBudgetSettings(0.2, 1, SECOND, -0.01f, Duration.ZERO));
		refused("budget.failure-rate-threshold", () -> new RetryBudgetSettings(0.2, 1, SECOND, 100.01f, Duration.ZERO));
		refused("budget.failing-for", () -> new RetryBudgetSettings(0.2, 1, SECOND, 50, Duration.ofNanos(-1)));
		refused("budget.failing-for", () -> new RetryBudgetSettings(0.2, 1, SECOND, 50,
				Duration.ofHours(1).plusNanos(1)));
	}

	private static CircuitBreakerSettings breaker(float threshold, int window, Duration open, int probes,
			Duration failingFor) {
		return new CircuitBreakerSettings(threshold, window, open, probes, failingFor);
	}

	private static void accepted(Executable settings) {
		assertThatNoException().isThrownBy(settings::execute);
	}

	private static void refused(String setting, Executable settings) {
		InvalidSettingException refusal = assertThrows(InvalidSettingException.class, settings);
		assertThat(refusal.setting()).isEqualTo(setting);
	}

}
