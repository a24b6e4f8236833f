package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.retry.CallLog;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker of one client instance, a Resilience4j {@link CircuitBreaker} fed with attempts'
 * statuses. A failure is what says Model Armor is not serving: HTTP 500, 502, 503, 504, no answer
 * ({@code io_error}: refused, reset, timed out). Everything else counts as a success, since the service
 * answered: a 4xx such as 400 or 413 (the caller's input), a match. Neither is an HTTP 429 (the quota is
 * spent, the service is up; the limiter and the retry budget deal with it) nor an attempt that was not
 * sent for want of an access token: they are left out of the failure rate.
 *
 * <p>Each change of state logs one WARN line (opened, half-open, closed); refused attempts log nothing here,
 * they are counted by the meters.
 */
public final class ModelArmorCircuitBreaker {

	private static final Logger logger = LoggerFactory.getLogger(ModelArmorCircuitBreaker.class);

	private static final Set<String> FAILURES = Set.of("500", "502", "503", "504", "io_error");

	private static final Set<String> LEFT_OUT = Set.of("429", "token_unavailable", "none");

	private final CircuitBreaker breaker;

	/**
	 * Creates a closed breaker.
	 * @param name the name in its log lines, e.g. {@code modelarmor}
	 * @param settings when it opens and closes
	 * @param clock tells when the open state's wait has passed
	 */
	public ModelArmorCircuitBreaker(String name, CircuitBreakerSettings settings, Clock clock) {
		CircuitBreakerConfig config = CircuitBreakerConfig.custom()
			.failureRateThreshold(settings.failureRateThreshold())
			.slidingWindow(settings.windowSize(), settings.windowSize(),
					CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
			.waitDurationInOpenState(settings.waitInOpenState())
			.permittedNumberOfCallsInHalfOpenState(settings.halfOpenProbes())
			.automaticTransitionFromOpenToHalfOpenEnabled(false)
			// slowness is the deadline's business, not the breaker's
			.slowCallRateThreshold(100)
			.slowCallDurationThreshold(Duration.ofDays(1))
			.clock(clock)
			.build();
		this.breaker = CircuitBreaker.of(name, config);
		this.breaker.getEventPublisher()
			.onStateTransition((event) -> stateChanged(event.getStateTransition().getFromState().name(),
					event.getStateTransition().getToState().name()));
	}

	private void stateChanged(String from, String to) {
		String state = to.toLowerCase(Locale.ROOT);
		String previous = from.toLowerCase(Locale.ROOT);
		float failureRate = this.breaker.getMetrics().getFailureRate();
		CallLog.warn(logger).field("state", state).field("from", previous).field("failure_rate", failureRate)
			.log("Model Armor circuit breaker changed state: state=" + state + " from=" + previous + " failureRate="
					+ failureRate);
	}

	/**
	 * Asks to send an attempt.
	 * @return {@code true} when it may be sent; the caller then reports it with {@link #ended} or
	 * {@link #released}
	 */
	boolean tryAcquire() {
		return this.breaker.tryAcquirePermission();
	}

	/** An acquired attempt was not sent after all (no quota permit). */
	void released() {
		this.breaker.releasePermission();
	}

	/**
	 * An acquired attempt ended.
	 * @param status its status
	 * @param nanos how long it took
	 */
	void ended(String status, long nanos) {
		if (FAILURES.contains(status)) {
			this.breaker.onError(nanos, TimeUnit.NANOSECONDS, new AttemptFailed(status));
		}
		else if (LEFT_OUT.contains(status)) {
			this.breaker.releasePermission();
		}
		else {
			this.breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
		}
	}

	/**
	 * Closes the breaker and forgets the attempts it counted, as at its start. For tests that share an
	 * application context: an outage one test programs must not refuse the calls of the next.
	 */
	public void reset() {
		this.breaker.reset();
	}

	/**
	 * The breaker's state, for meters and health.
	 * @return e.g. {@code closed}, {@code open}, {@code half_open}
	 */
	public String state() {
		return this.breaker.getState().name().toLowerCase(Locale.ROOT);
	}

	/** What Resilience4j records as the failure: the status only, without a stack trace. */
	private static final class AttemptFailed extends RuntimeException {

		AttemptFailed(String status) {
			super("attempt failed: " + status, null, false, false);
		}

	}

}
