package dev.modelarmor.observation.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.modelarmor.resilience.ResilienceObserver;
import dev.modelarmor.retry.CallOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Records every HTTP attempt of the Model Armor client, and every attempt that was not sent, with
 * Micrometer:
 * <table>
 * <caption>Meters</caption>
 * <tr><th>Name</th><th>Type</th><th>Tags</th><th>What</th></tr>
 * <tr><td>{@value #HTTP_ATTEMPTS}</td><td>counter</td><td>{@code operation}, {@code template},
 * {@code location}, {@code status}</td><td>each HTTP attempt, retries included, by its status ({@code 200}, {@code 429},
 * {@code 503}, {@code io_error}, {@code token_unavailable}, {@code none}): a 429 followed by a success
 * counts one of each</td></tr>
 * <tr><td>{@value #REFUSED}</td><td>counter</td><td>{@code operation}, {@code template},
 * {@code location}, {@code outcome}</td><td>attempts not sent: {@code circuit_open}, {@code quota_exhausted},
 * {@code interrupted}</td></tr>
 * <tr><td>{@value #QUOTA_WAIT}</td><td>timer</td><td>{@code template}, {@code location}, {@code result}
 * ({@code granted}, {@code refused})</td><td>the time each attempt waited for a quota permit</td></tr>
 * </table>
 * The {@code template} tag is a configured template's id, {@code none} for a call without one, and
 * {@code other} for any other id, and the {@code location} tag the location the call went to (its first 64
 * locations; {@code other} past them), so that the series stay bounded.
 */
public class MicrometerResilienceObserver implements ResilienceObserver {

	/** The counter of HTTP attempts by status. */
	public static final String HTTP_ATTEMPTS = "modelarmor.client.http.attempts";

	/** The counter of attempts that were not sent. */
	public static final String REFUSED = "modelarmor.client.refused";

	/** The timer of the waits for a quota permit. */
	public static final String QUOTA_WAIT = "modelarmor.quota.wait";

	private final MeterRegistry meters;

	private final Set<String> templates;

	private final Set<String> locations = ConcurrentHashMap.newKeySet();

	/**
	 * Creates an observer.
	 * @param meters where the meters go
	 * @param templates the configured templates, the only ids the {@code template} tag shows
	 */
	public MicrometerResilienceObserver(MeterRegistry meters, Set<String> templates) {
		this.meters = meters;
		this.templates = Set.copyOf(templates);
	}

	@Override
	public void attemptEnded(String operation, @Nullable String template, String location, String status) {
		Counter.builder(HTTP_ATTEMPTS)
			.description("HTTP attempts of Model Armor calls, retries included, by status")
			.tag("operation", operation)
			.tag("template", BoundedTags.template(template, this.templates))
			.tag("location", BoundedTags.location(location, this.locations))
			.tag("status", status)
			.register(this.meters)
			.increment();
	}

	@Override
	public void attemptRefused(String operation, @Nullable String template, String location, CallOutcome outcome) {
		Counter.builder(REFUSED)
			.description("Attempts of Model Armor calls that were not sent (circuit open, quota exhausted)")
			.tag("operation", operation)
			.tag("template", BoundedTags.template(template, this.templates))
			.tag("location", BoundedTags.location(location, this.locations))
			.tag("outcome", outcome.tag())
			.register(this.meters)
			.increment();
	}

	@Override
	public void quotaAsked(@Nullable String template, String location, Duration waited, boolean granted) {
		Timer.builder(QUOTA_WAIT)
			.description("Time an attempt waited for a permit of the Model Armor quota")
			.tag("template", BoundedTags.template(template, this.templates))
			.tag("location", BoundedTags.location(location, this.locations))
			.tag("result", granted ? "granted" : "refused")
			.register(this.meters)
			.record(waited);
	}

}
