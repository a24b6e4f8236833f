package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.retry.CallLog;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker of one client instance, a Resilience4j {@link CircuitBreaker} that counts calls, each
 * once ({@link CircuitBreakerSettings}). A failure is what says Model Armor is not serving: HTTP 500, 502,
 * 503, 504, no answer ({@code io_error}: refused, reset, timed out), for {@code failingFor} or until the call
 * ended. A success is any answer from the service: a 4xx such as 400 or 413 (the caller's input), a match.
 * Neither is an HTTP 429 (the quota is spent, the service is up; the limiter and the retry budget deal with
 * it) nor an attempt that was not sent for want of an access token.
 *
 * <p>A call asks for a permission at its first attempt ({@link #start}); its retries are sent unless the
 * breaker has opened meanwhile. Each change of state logs one WARN line (opened, half-open, closed); refused
 * attempts log nothing here, they are counted by the meters.
 */
public final class ModelArmorCircuitBreaker {

	private static final Logger logger = LoggerFactory.getLogger(ModelArmorCircuitBreaker.class);

	private static final Set<String> FAILURES = Set.of("500", "502", "503", "504", "io_error");

	private static final Set<String> LEFT_OUT = Set.of("429", "token_unavailable", "none");

	private final CircuitBreaker breaker;

	private final Clock clock;

	private final Duration failingFor;

	/**
	 * Creates a closed breaker.
	 * @param name the name in its log lines, e.g. {@code modelarmor}
	 * @param settings when it opens and closes
	 * @param clock tells when the open state's wait has passed and how long a call has been failing
	 */
	public ModelArmorCircuitBreaker(String name, CircuitBreakerSettings settings, Clock clock) {
		CircuitBreakerConfig config = CircuitBreakerConfig.custom()
			.failureRateThreshold(settings.failureRateThreshold())
			// one call per setter: slidingWindow(size, minimumCalls, type) is new in Resilience4j 2.4, while
			// Spring Cloud's release train manages 2.3
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
			.slidingWindowSize(settings.windowSize())
			.minimumNumberOfCalls(settings.windowSize())
			.waitDurationInOpenState(settings.waitInOpenState())
			.permittedNumberOfCallsInHalfOpenState(settings.halfOpenProbes())
			.automaticTransitionFromOpenToHalfOpenEnabled(false)
			// slowness is the deadline's business, not the breaker's
			.slowCallRateThreshold(100)
			.slowCallDurationThreshold(Duration.ofDays(1))
			.clock(clock)
			.build();
		this.clock = clock;
		this.failingFor = settings.failingFor();
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
	 * A call asks to send its first attempt.
	 * @return the call's permission, or {@code null} when the breaker refuses it
	 */
	@Nullable Call start() {
		return this.breaker.tryAcquirePermission() ? new Call(this.clock.millis()) : null;
	}

	/**
	 * One call admitted by the breaker: counted once, as a success, a failure, or not at all.
	 */
	final class Call {

		private final long startedMillis;

		private boolean counted;

		private boolean failed;

		private Call(long startedMillis) {
			this.startedMillis = startedMillis;
		}

		/**
		 * Whether a retry of this call may be sent.
		 * @return {@code false} once the breaker has opened
		 */
		boolean mayRetry() {
			CircuitBreaker.State state = ModelArmorCircuitBreaker.this.breaker.getState();
			return state != CircuitBreaker.State.OPEN && state != CircuitBreaker.State.FORCED_OPEN;
		}

		/**
		 * An attempt of the call ended.
		 * @param status its status
		 */
		synchronized void attemptEnded(String status) {
			if (this.counted) {
				return;
			}
			if (FAILURES.contains(status)) {
				this.failed = true;
				if (failingMillis() >= ModelArmorCircuitBreaker.this.failingFor.toMillis()) {
					count(true);
				}
			}
			else if (!LEFT_OUT.contains(status)) {
				count(false);
			}
		}

		/** The call ended: a call still failing counts as failed; one that never met a failure is left out. */
		synchronized void ended() {
			if (this.counted) {
				return;
			}
			if (this.failed) {
				count(true);
			}
			else {
				this.counted = true;
				ModelArmorCircuitBreaker.this.breaker.releasePermission();
			}
		}

		private long failingMillis() {
			return ModelArmorCircuitBreaker.this.clock.millis() - this.startedMillis;
		}

		private void count(boolean failure) {
			this.counted = true;
			long nanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, failingMillis()));
			if (failure) {
				ModelArmorCircuitBreaker.this.breaker.onError(nanos, TimeUnit.NANOSECONDS, new CallFailed());
			}
			else {
				ModelArmorCircuitBreaker.this.breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
			}
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

	/** What Resilience4j records as the failure, without a stack trace. */
	private static final class CallFailed extends RuntimeException {

		CallFailed() {
			super("Model Armor call failed", null, false, false);
		}

	}

}
