package dev.modelarmor.observation.internal;

import java.util.Set;

import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Records the logical calls of a {@link dev.modelarmor.client.ModelArmorTemplate} with Micrometer.
 *
 * <p>Each call is one {@link Observation} named {@value #OBSERVATION} (contextual name
 * {@code modelarmor <operation>}, e.g. {@code modelarmor sanitize_user_prompt}), so that a trace shows one
 * span per call. It carries the low-cardinality keys {@code operation} (from the start), {@code outcome}
 * and {@code status} (when the call ends), and one {@link Observation.Event} named
 * {@value #ATTEMPT_FAILED} per failed attempt, whose contextual name gives the attempt number and the
 * short failure ({@code attempt 1 failed: HTTP 503}), never content. The observation is in scope while the
 * call runs on the calling thread, so the HTTP attempts' own {@code http.client.requests} observations,
 * which Boot's {@code RestClient.Builder} records, nest under it; a non-blocking call takes it out of the
 * calling thread's context as soon as it goes on elsewhere.
 *
 * <p>With a {@link MeterRegistry}, each call also records these meters:
 * <table>
 * <caption>Meters</caption>
 * <tr><th>Name</th><th>Type</th><th>Tags</th><th>What</th></tr>
 * <tr><td>{@value #REQUESTS}</td><td>timer</td><td>{@code operation}, {@code template}, {@code outcome},
 * {@code status}</td>
 * <td>the whole logical call, retries and waits included</td></tr>
 * <tr><td>{@value #ATTEMPTS}</td><td>distribution summary (base unit {@code attempts})</td>
 * <td>{@code operation}</td><td>the HTTP attempts the call made</td></tr>
 * <tr><td>{@value #BACKOFF}</td><td>timer</td><td>{@code operation}</td>
 * <td>the time the call spent waiting between attempts</td></tr>
 * </table>
 *
 * <p>Tag values: {@code operation} is {@code sanitize_user_prompt}, {@code sanitize_model_response},
 * {@code templates.list|get|create|update|delete} or {@code floor_settings.get|update}; {@code outcome}
 * is a {@link CallOutcome#tag()} (the same value as {@link ModelArmorException#outcome()});
 * {@code status} is the HTTP status of the last attempt ({@code 200}, {@code 503}), {@code io_error}
 * when it got no answer, {@code token_unavailable} when it could not be sent for want of an access token
 * (the token endpoint stalled or failed), or {@code none} when nothing was sent; {@code template} is a
 * configured template's id, {@code none} for a call that names none (templates.list, floor settings),
 * and {@code other} for any other id, so that callers naming templates cannot create series at will.
 *
 * <p>The timer measures with the registry's clock. Calls must start and finish on the same thread, as
 * {@code ModelArmorTemplate}'s do.
 */
public class MicrometerCallObserver implements ModelArmorCallObserver {

	/** The name of the observation of one call. */
	public static final String OBSERVATION = "modelarmor.client.call";

	/** The name of the event of a failed attempt. */
	public static final String ATTEMPT_FAILED = "attempt.failed";

	/** The timer of whole calls. */
	public static final String REQUESTS = "modelarmor.client.requests";

	/** The distribution summary of the attempts per call. */
	public static final String ATTEMPTS = "modelarmor.client.attempts";

	/** The timer of the time spent waiting between attempts. */
	public static final String BACKOFF = "modelarmor.client.backoff";

	private final @Nullable MeterRegistry meters;

	private final ObservationRegistry observations;

	private final Set<String> templates;

	/**
	 * Creates an observer that tags every template {@code other}.
	 * @param meters where meters go, or {@code null} for observations only
	 * @param observations where observations go; {@link ObservationRegistry#NOOP} for meters only
	 */
	public MicrometerCallObserver(@Nullable MeterRegistry meters, ObservationRegistry observations) {
		this(meters, observations, Set.of());
	}

	/**
	 * Creates an observer.
	 * @param meters where meters go, or {@code null} for observations only
	 * @param observations where observations go; {@link ObservationRegistry#NOOP} for meters only
	 * @param templates the configured templates, the only ids the {@code template} tag shows
	 */
	public MicrometerCallObserver(@Nullable MeterRegistry meters, ObservationRegistry observations,
			Set<String> templates) {
		this.meters = meters;
		this.observations = observations;
		this.templates = Set.copyOf(templates);
	}

	@Override
	public Call start(String operation) {
		return start(operation, null);
	}

	@Override
	public Call start(String operation, @Nullable String template) {
		Timer.Sample sample = (this.meters != null) ? Timer.start(this.meters) : null;
		Observation observation = Observation.createNotStarted(OBSERVATION, this.observations)
			.contextualName("modelarmor " + operation)
			.lowCardinalityKeyValue("operation", operation)
			.start();
		return new ObservedCall(observation, observation.openScope(), sample,
				BoundedTags.template(template, this.templates));
	}

	private void record(CallResult result, Timer.@Nullable Sample sample, String template) {
		MeterRegistry registry = this.meters;
		if (registry == null || sample == null) {
			return;
		}
		Tags operation = Tags.of("operation", result.operation());
		sample.stop(Timer.builder(REQUESTS)
			.description("Logical Model Armor calls, retries and waits between attempts included")
			.tags(operation)
			.tag("template", template)
			.tag("outcome", result.outcome().tag())
			.tag("status", result.status())
			.register(registry));
		DistributionSummary.builder(ATTEMPTS)
			.description("HTTP attempts per logical Model Armor call")
			.baseUnit("attempts")
			.tags(operation)
			.register(registry)
			.record(result.attempts());
		Timer.builder(BACKOFF)
			.description("Time a logical Model Armor call spent waiting between attempts")
			.tags(operation)
			.register(registry)
			.record(result.backoff());
	}

	private final class ObservedCall implements Call {

		private final Observation observation;

		private final Observation.Scope scope;

		private final Timer.@Nullable Sample sample;

		private final String template;

		private boolean finished;

		/** The thread whose context holds the scope: only there can it be closed. */
		private final Thread starting = Thread.currentThread();

		private boolean scopeClosed;

		ObservedCall(Observation observation, Observation.Scope scope, Timer.@Nullable Sample sample,
				String template) {
			this.observation = observation;
			this.scope = scope;
			this.sample = sample;
			this.template = template;
		}

		@Override
		public void attemptFailed(int attempt, String failure) {
			this.observation.event(Observation.Event.of(ATTEMPT_FAILED, "attempt " + attempt + " failed: " + failure));
		}

		@Override
		public void finished(CallResult result) {
			if (this.finished) {
				return;
			}
			this.finished = true;
			try {
				record(result, this.sample, this.template);
			}
			finally {
				this.observation.lowCardinalityKeyValue("outcome", result.outcome().tag())
					.lowCardinalityKeyValue("status", result.status());
				closeScopeOnTheStartingThread();
				this.observation.stop();
			}
		}

		@Override
		public void leftTheStartingThread() {
			closeScopeOnTheStartingThread();
		}

		/**
		 * The scope lives in a thread-local of the thread that opened it: closed there, once. A call that ends on
		 * another thread has closed it when it left the starting one.
		 */
		private synchronized void closeScopeOnTheStartingThread() {
			if (!this.scopeClosed && Thread.currentThread() == this.starting) {
				this.scopeClosed = true;
				this.scope.close();
			}
		}

	}

}
