package dev.modelarmor.resilience;

import java.util.concurrent.CompletableFuture;

import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

/**
 * Consulted by the client before each HTTP attempt of a call, retries included, through the call's
 * {@link CallAdmissions}, and told each admitted attempt's status when it ends and the call when it ends.
 * A refused attempt is not sent: the call ends at once as not screened with
 * the refusal's outcome ({@link CallOutcome#QUOTA_EXHAUSTED}, {@link CallOutcome#CIRCUIT_OPEN}).
 *
 * <p>Implementations are thread-safe and never wait past the deadline they are given.
 */
@FunctionalInterface
public interface AttemptGate {

	/** Admits every attempt and records nothing. */
	AttemptGate OPEN = (operation, template, location) -> (deadline) -> Admission.ADMITTED;

	/**
	 * The admissions of one call: the client asks this object for every attempt of the call and tells it when
	 * the call ends, so that a gate can count calls rather than attempts.
	 * @param operation what the call does, e.g. {@code sanitize_user_prompt}
	 * @param template the template the call addresses, or {@code null}
	 * @param location the location the call goes to (e.g. {@code europe-west4}), whose failures alone may
	 * refuse it; {@code none} for a call that names none
	 * @return the call's admissions
	 */
	CallAdmissions call(String operation, @Nullable String template, String location);

	/**
	 * The gate's decisions for the attempts of one call, asked one attempt after another (never two at once).
	 */
	@FunctionalInterface
	interface CallAdmissions {

		/**
		 * Decides whether the call's next attempt may be sent now, waiting for a quota permit within the
		 * deadline.
		 * @param deadline the call's deadline, or {@code null} when the retry template is not the starter's
		 * (then the gate does not wait)
		 * @return the admission, told later how the attempt ended
		 */
		Admission admit(@Nullable RetryDeadline deadline);

		/**
		 * Decides as {@link #admit} does, for the non-blocking path: a wait for a quota permit is scheduled,
		 * never slept. By default the decision of {@link #admit} on the calling thread; override it when
		 * {@code admit} may wait.
		 * @param deadline the call's deadline, or {@code null}
		 * @return the admission, once decided
		 */
		default CompletableFuture<Admission> admitAsync(@Nullable RetryDeadline deadline) {
			return CompletableFuture.completedFuture(admit(deadline));
		}

		/** The call ended, whatever way; called once, after its last attempt's {@link Admission#ended}. */
		default void ended() {
		}

	}

	/**
	 * The gate's answer for one attempt.
	 */
	interface Admission {

		/** An admission that needs to hear nothing. */
		Admission ADMITTED = new Admission() {
		};

		/**
		 * Why the attempt may not be sent.
		 * @return the outcome the call ends with, or {@code null} when the attempt is admitted
		 */
		default @Nullable CallOutcome refusal() {
			return null;
		}

		/**
		 * The attempt ended; called once for an admitted attempt, never for a refused one.
		 * @param status the HTTP status ({@code 200}, {@code 503}), {@code io_error} without an answer,
		 * {@code token_unavailable} when it could not be sent for want of a token, or {@code none}
		 */
		default void ended(String status) {
		}

	}

}
