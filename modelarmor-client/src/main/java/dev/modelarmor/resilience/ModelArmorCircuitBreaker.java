package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.modelarmor.retry.CallLog;
import dev.modelarmor.retry.internal.AttemptKind;
import dev.modelarmor.retry.internal.FailureClassifier;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breakers of one client instance, one per location its calls go to: each a Resilience4j
 * {@link CircuitBreaker} that counts calls, each once ({@link CircuitBreakerSettings}), so that an outage in
 * one location never refuses the calls to another. A failure is what says Model Armor is not serving: HTTP
 * 500, 502, 503, 504, no answer ({@code io_error}: refused, reset, timed out), for {@code failingFor} or until
 * the call ended. A success is any answer from the service: a 4xx such as 400 or 413 (the caller's input), a
 * match. Neither is an HTTP 429 (the quota is spent, the service is up; the limiter and the retry budget deal
 * with it) nor an attempt that was not sent for want of an access token.
 *
 * <p>A call asks its location's breaker for a permission at its first attempt ({@link #start}); its retries
 * are sent unless that breaker has opened meanwhile. Each change of state logs one WARN line naming the
 * location (opened, half-open, closed); refused attempts log nothing here, they are counted by the meters.
 */
public final class ModelArmorCircuitBreaker {

	private static final Logger logger = LoggerFactory.getLogger(ModelArmorCircuitBreaker.class);

	/** More locations than Google has: beyond them, calls share one breaker, so that no input grows the map. */
	static final int MAX_LOCATIONS = 256;

	private static final String OTHER_LOCATIONS = "other";

	/** The states by how much they refuse, for the summary of all locations. */
	private static final List<String> BY_SEVERITY = List.of("forced_open", "open", "half_open", "metrics_only",
			"disabled", "closed");

	private final String name;

	private final CircuitBreakerConfig config;

	private final Clock clock;

	private final Duration failingFor;

	private final ConcurrentHashMap<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

	private final List<Consumer<String>> locationListeners = new CopyOnWriteArrayList<>();

	/**
	 * Creates the breakers, every one closed.
	 * @param name the name in their log lines, e.g. {@code modelarmor}
	 * @param settings when each opens and closes
	 * @param clock tells when the open state's wait has passed and how long a call has been failing
	 */
	public ModelArmorCircuitBreaker(String name, CircuitBreakerSettings settings, Clock clock) {
		this.config = CircuitBreakerConfig.custom()
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
		this.name = name;
		this.clock = clock;
		this.failingFor = settings.failingFor();
	}

	private CircuitBreaker breaker(String location) {
		CircuitBreaker breaker = this.breakers.get(location);
		if (breaker != null) {
			return breaker;
		}
		String key = (this.breakers.size() < MAX_LOCATIONS) ? location : OTHER_LOCATIONS;
		boolean[] created = { false };
		breaker = this.breakers.computeIfAbsent(key, (named) -> {
			created[0] = true;
			CircuitBreaker made = CircuitBreaker.of(this.name + "-" + named, this.config);
			made.getEventPublisher()
				.onStateTransition((event) -> stateChanged(named, made, event.getStateTransition().getFromState().name(),
						event.getStateTransition().getToState().name()));
			return made;
		});
		if (created[0]) {
			for (Consumer<String> listener : this.locationListeners) {
				listener.accept(key);
			}
		}
		return breaker;
	}

	private static void stateChanged(String location, CircuitBreaker breaker, String from, String to) {
		String state = to.toLowerCase(Locale.ROOT);
		String previous = from.toLowerCase(Locale.ROOT);
		float failureRate = breaker.getMetrics().getFailureRate();
		CallLog.warn(logger).field("location", location).field("state", state).field("from", previous)
			.field("failure_rate", failureRate)
			.log("Model Armor circuit breaker changed state: location=" + location + " state=" + state + " from="
					+ previous + " failureRate=" + failureRate);
	}

	/**
	 * Tells a listener of each location whose breaker is made from now on, and of those made already: for
	 * meters that follow every location.
	 * @param listener told the location's name
	 */
	public void onLocation(Consumer<String> listener) {
		this.locationListeners.add(listener);
		this.breakers.keySet().forEach(listener);
	}

	/**
	 * A call asks to send its first attempt.
	 * @return the call's permission, or {@code null} when the breaker refuses it
	 */
	@Nullable Call start(String location) {
		CircuitBreaker breaker = breaker(location);
		return breaker.tryAcquirePermission() ? new Call(breaker, this.clock.millis()) : null;
	}

	/**
	 * One call admitted by the breaker: counted once, as a success, a failure, or not at all.
	 */
	final class Call {

		private final CircuitBreaker breaker;

		private final long startedMillis;

		private boolean counted;

		private boolean failed;

		private Call(CircuitBreaker breaker, long startedMillis) {
			this.breaker = breaker;
			this.startedMillis = startedMillis;
		}

		/**
		 * Whether a retry of this call may be sent.
		 * @return {@code false} once the breaker has opened
		 */
		boolean mayRetry() {
			CircuitBreaker.State state = this.breaker.getState();
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
			AttemptKind kind = FailureClassifier.kindOfStatus(status);
			if (kind == AttemptKind.SERVICE_FAILURE) {
				this.failed = true;
				if (failingMillis() >= ModelArmorCircuitBreaker.this.failingFor.toMillis()) {
					count(true);
				}
			}
			else if (kind == AttemptKind.ANSWERED) {
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
				this.breaker.releasePermission();
			}
		}

		private long failingMillis() {
			return ModelArmorCircuitBreaker.this.clock.millis() - this.startedMillis;
		}

		private void count(boolean failure) {
			this.counted = true;
			long nanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, failingMillis()));
			if (failure) {
				this.breaker.onError(nanos, TimeUnit.NANOSECONDS, new CallFailed());
			}
			else {
				this.breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
			}
		}

	}

	/**
	 * Closes every location's breaker and forgets the attempts it counted, as at its start. For tests that
	 * share an application context: an outage one test programs must not refuse the calls of the next.
	 */
	public void reset() {
		this.breakers.values().forEach(CircuitBreaker::reset);
	}

	/**
	 * The state of one location's breaker, for meters and health.
	 * @param location the location
	 * @return e.g. {@code closed}, {@code open}, {@code half_open}; {@code closed} for a location no call
	 * went to yet
	 */
	public String state(String location) {
		CircuitBreaker breaker = this.breakers.get(location);
		return (breaker != null) ? stateOf(breaker) : "closed";
	}

	/**
	 * The state of every location's breaker, for health.
	 * @return the states by location, in the order of the locations' names
	 */
	public Map<String, String> states() {
		Map<String, String> states = new TreeMap<>();
		this.breakers.forEach((location, breaker) -> states.put(location, stateOf(breaker)));
		return states;
	}

	/**
	 * The state that refuses most among the locations' breakers: {@code open} when any location's is open.
	 * @return e.g. {@code closed}, {@code open}, {@code half_open}
	 */
	public String state() {
		Collection<String> states = states().values();
		for (String state : BY_SEVERITY) {
			if (states.contains(state)) {
				return state;
			}
		}
		return "closed";
	}

	private static String stateOf(CircuitBreaker breaker) {
		return breaker.getState().name().toLowerCase(Locale.ROOT);
	}

	/** What Resilience4j records as the failure, without a stack trace. */
	private static final class CallFailed extends RuntimeException {

		CallFailed() {
			super("Model Armor call failed", null, false, false);
		}

	}

}
