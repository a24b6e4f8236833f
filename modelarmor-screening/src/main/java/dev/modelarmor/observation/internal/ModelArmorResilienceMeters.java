package dev.modelarmor.observation.internal;

import java.util.List;

import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.retry.RetryBudget;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The gauges of the client's resilience, one series per location the client calls (tag {@code location}):
 * {@value #CIRCUIT_BREAKER_STATE} (one series per state, tag {@code state} = {@code closed}, {@code open},
 * {@code half_open}, …; 1 for the location's current state, 0 for the others) and {@value #RETRY_BUDGET_TOKENS}
 * (the retries of a 5xx the location's retry budget allows now once it holds retries back). A location's
 * series appear with its first call.
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
	 * Registers the gauges of what there is, for every location now and later.
	 * @param meters the registry
	 * @param breaker the circuit breakers, or {@code null}
	 * @param budget the retry budget, or {@code null}
	 */
	public static void register(MeterRegistry meters, @Nullable ModelArmorCircuitBreaker breaker,
			@Nullable RetryBudget budget) {
		if (breaker != null) {
			breaker.onLocation((location) -> {
				for (String state : STATES) {
					Gauge.builder(CIRCUIT_BREAKER_STATE, breaker, (b) -> state.equals(b.state(location)) ? 1 : 0)
						.description("The Model Armor circuit breaker's state, per location: 1 for the current one")
						.tag("location", location)
						.tag("state", state)
						.register(meters);
				}
			});
		}
		if (budget != null) {
			budget.onLocation((location) -> Gauge.builder(RETRY_BUDGET_TOKENS, budget, (b) -> b.tokens(location))
				.description("Retries of a 5xx the location's Model Armor retry budget allows now, once it holds "
						+ "retries back")
				.baseUnit("tokens")
				.tag("location", location)
				.register(meters));
		}
	}

}
