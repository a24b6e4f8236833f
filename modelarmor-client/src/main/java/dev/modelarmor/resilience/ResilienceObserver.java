package dev.modelarmor.resilience;

import java.time.Duration;

import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Told of every attempt the {@link ResilienceGate} admits or refuses, for meters. Implementations are
 * thread-safe and fast; one that throws is logged and never fails a call.
 */
public interface ResilienceObserver {

	/** Records nothing. */
	ResilienceObserver NONE = new ResilienceObserver() {
	};

	/**
	 * An admitted attempt ended.
	 * @param operation e.g. {@code sanitize_user_prompt}
	 * @param template the template it addressed, or {@code null}
	 * @param location the location it went to, or {@code none}
	 * @param status its status: {@code 200}, {@code 429}, {@code 503}, {@code io_error}, …
	 */
	default void attemptEnded(String operation, @Nullable String template, String location, String status) {
	}

	/**
	 * An attempt was not sent.
	 * @param operation e.g. {@code sanitize_user_prompt}
	 * @param template the template it addressed, or {@code null}
	 * @param location the location it went to, or {@code none}
	 * @param outcome {@link CallOutcome#CIRCUIT_OPEN}, {@link CallOutcome#QUOTA_EXHAUSTED} or
	 * {@link CallOutcome#INTERRUPTED}
	 */
	default void attemptRefused(String operation, @Nullable String template, String location, CallOutcome outcome) {
	}

	/**
	 * An attempt asked the limiter for a permit.
	 * @param template the template it addressed, or {@code null}
	 * @param location the location it went to, or {@code none}
	 * @param waited the time it waited
	 * @param granted whether it got one
	 */
	default void quotaAsked(@Nullable String template, String location, Duration waited, boolean granted) {
	}

}
