package dev.modelarmor.observation.internal;

import java.util.List;

import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.retry.RetryBudget;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The gauges of the client's resilience: {@value #CIRCUIT_BREAKER_STATE} (one series per state, tag
 * {@code state} = {@code closed}, {@code open}, {@code half_open}, …; 1 for the current state, 0 for the
 * others) and {@value #RETRY_BUDGET_TOKENS} (the retries of a 5xx the retry budget allows now).
 */
public final class ModelArmorResilienceMeters {

	/** The gauge of the circuit breaker's state. */
	public static final String CIRCUIT_BREAKER_STATE = "modelarmor.circuit-breaker.state";

	/** The gauge of the retry budget. */
	public static final String RETRY_BUDGET_TOKENS = "modelarmor.retry.budget.tokens";

	private static final List<String> STATES = List.of("closed", "open", "half_open", "disabled", "forced_open",
			"metrics_only");

	private ModelArmorResilienceMeters() {
	}

	/**
	 * Registers the gauges of what there is.
	 * @param meters the registry
	 * @param breaker the circuit breaker, or {@code null}
	 * @param budget the retry budget, or {@code null}
	 */
	public static void register(MeterRegistry meters, @Nullable ModelArmorCircuitBreaker breaker,
			@Nullable RetryBudget budget) {
		if (breaker != null) {
			for (String state : STATES) {
				Gauge.builder(CIRCUIT_BREAKER_STATE, breaker, (b) -> state.equals(b.state()) ? 1 : 0)
					.description("The Model Armor circuit breaker's state: 1 for the current one")
					.tag("state", state)
					.register(meters);
			}
		}
		if (budget != null) {
			Gauge.builder(RETRY_BUDGET_TOKENS, budget, RetryBudget::tokens)
				.description("Tokens left in the Model Armor retry budget; retries stop at half")
				.baseUnit("tokens")
				.register(meters);
		}
	}

}
