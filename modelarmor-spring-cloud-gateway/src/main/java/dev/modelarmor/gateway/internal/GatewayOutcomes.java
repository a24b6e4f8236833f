package dev.modelarmor.gateway.internal;

import java.util.Set;
import java.util.TreeSet;

import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the filter did with each screened exchange, by route: the counter
 * {@value #EXCHANGES} (tags {@code route}, {@code api}, {@code outcome}) and, for every exchange it
 * refused or could not screen, one WARN line with the route, the outcome and the filters that matched,
 * never any content. The starter's own screening metrics and log lines carry the route in their
 * {@code method} ({@code gateway route <id>}).
 */
public final class GatewayOutcomes {

	/** The counter of screened exchanges. */
	public static final String EXCHANGES = "modelarmor.gateway.exchanges";

	static final String PASSED = "passed";

	static final String DEIDENTIFIED = "deidentified";

	static final String PROMPT_REFUSED = "prompt_refused";

	static final String ANSWER_REFUSED = "answer_refused";

	static final String NOT_SCREENED = "not_screened";

	static final String BAD_REQUEST = "bad_request";

	static final String BAD_ANSWER = "bad_answer";

	private static final Logger logger = LoggerFactory.getLogger(GatewayOutcomes.class);

	private final @Nullable MeterRegistry meters;

	/**
	 * Creates the outcomes.
	 * @param meters where the counter goes, or {@code null} for none
	 */
	public GatewayOutcomes(@Nullable MeterRegistry meters) {
		this.meters = meters;
	}

	void record(RouteSettings route, String outcome, @Nullable Refusal refusal) {
		MeterRegistry meters = this.meters;
		if (meters != null) {
			Counter.builder(EXCHANGES)
				.description("Exchanges screened by the ModelArmor gateway filter")
				.tag("route", route.routeId())
				.tag("api", route.api())
				.tag("outcome", outcome)
				.register(meters)
				.increment();
		}
		if (!outcome.equals(PASSED) && !outcome.equals(DEIDENTIFIED)) {
			Set<String> filters = (refusal instanceof Blocked blocked) ? new TreeSet<>(blocked.result().matchedFilters())
					: Set.of();
			logger.warn("Model Armor gateway: route=\"{}\" api={} outcome={} phase={} filters={}", route.routeId(),
					route.api(), outcome, (refusal != null) ? refusal.phase() : "none", filters);
		}
	}

}
