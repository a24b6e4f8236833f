package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reset closes an open breaker and forgets what it counted, so that tests sharing a context start from a
 * closed breaker (the test kit resets it between test methods).
 */
class ModelArmorCircuitBreakerResetTests {

	@Test
	void aResetClosesAnOpenBreakerAndForgetsItsWindow() {
		ModelArmorCircuitBreaker breaker = new ModelArmorCircuitBreaker("test",
				new CircuitBreakerSettings(50, 4, Duration.ofMinutes(10), 1), Clock.systemUTC());
		for (int call = 0; call < 4; call++) {
			ModelArmorCircuitBreaker.Call permission = breaker.start("us-central1");
			assertThat(permission).isNotNull();
			permission.attemptEnded("503");
		}
		assertThat(breaker.state("us-central1")).isEqualTo("open");
		assertThat(breaker.start("us-central1")).isNull();

		breaker.reset();

		assertThat(breaker.state("us-central1")).isEqualTo("closed");
		ModelArmorCircuitBreaker.Call permission = breaker.start("us-central1");
		assertThat(permission).isNotNull();
		permission.attemptEnded("503");
		assertThat(breaker.state("us-central1")).as("the failures before the reset are forgotten").isEqualTo("closed");
	}

}
