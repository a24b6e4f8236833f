package dev.modelarmor.retry.internal;

import java.io.IOException;
import java.security.cert.CertificateException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import dev.modelarmor.retry.HttpFailure;
import dev.modelarmor.retry.TokenUnavailableException;
import org.jspecify.annotations.Nullable;

/**
 * Which failures are worth another attempt: Google's retry strategy names HTTP 500, 502, 503 and 504,
 * and allows 429; a failure to reach the server at all (refused, reset, timed out, empty answer) is
 * retried too, unless the server's certificate was refused. Every other answer, such as 400 or 403, and a
 * certificate that is not trusted would fail the same way again.
 */
public final class FailureClassifier {

	private static final Set<Integer> ALWAYS_RETRIED = Set.of(500, 502, 503, 504);

	private static final int TOO_MANY_REQUESTS = 429;

	private final boolean retryTooManyRequests;

	/**
	 * Creates a classifier.
	 * @param retryTooManyRequests whether HTTP 429 is retried
	 */
	public FailureClassifier(boolean retryTooManyRequests) {
		this.retryTooManyRequests = retryTooManyRequests;
	}

	/**
	 * Whether a failed attempt may be retried.
	 * @param failure the attempt's failure
	 * @return {@code true} for a retryable status or an I/O failure other than a refused certificate
	 */
	public boolean isRetryable(Throwable failure) {
		if (failure instanceof HttpFailure http) {
			return isRetryableStatus(http.statusCode());
		}
		return ioCause(failure) != null && !isCertificateRefused(failure);
	}

	/**
	 * Whether a failure is the refusal of the server's certificate (not trusted, or not for that host):
	 * trusting it is a matter of configuration, not of time.
	 * @param failure the failure
	 * @return {@code true} when a {@link CertificateException} caused it
	 */
	public static boolean isCertificateRefused(Throwable failure) {
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
			if (t instanceof CertificateException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * What an attempt's status says about the service, the one classification of a status that the retry
	 * policy, the budget and the circuit breaker read.
	 * @param status the status as the client records it: the HTTP status code ({@code 503}), {@code io_error}
	 * without an answer, {@code token_unavailable} or {@code none} when nothing was sent
	 * @return its kind
	 */
	public static AttemptKind kindOfStatus(String status) {
		return switch (status) {
			case "io_error" -> AttemptKind.SERVICE_FAILURE;
			case "token_unavailable", "none" -> AttemptKind.NOT_SENT;
			default -> kindOfCode(status);
		};
	}

	/**
	 * What a failed attempt says about the service, as {@link #kindOfStatus} for the failure itself.
	 * @param failure the attempt's failure
	 * @return {@link AttemptKind#TOO_MANY_REQUESTS} for an HTTP 429, {@link AttemptKind#SERVICE_FAILURE} for a
	 * 500, 502, 503, 504 or an I/O failure, {@link AttemptKind#NOT_SENT} without a token, else
	 * {@link AttemptKind#ANSWERED}
	 */
	public static AttemptKind kindOf(Throwable failure) {
		if (failure instanceof HttpFailure http) {
			return kindOfCode(http.statusCode());
		}
		Throwable io = ioCause(failure);
		if (io instanceof TokenUnavailableException) {
			return AttemptKind.NOT_SENT;
		}
		return (io != null) ? AttemptKind.SERVICE_FAILURE : AttemptKind.ANSWERED;
	}

	private static AttemptKind kindOfCode(String status) {
		try {
			return kindOfCode(Integer.parseInt(status));
		}
		catch (NumberFormatException ex) {
			return AttemptKind.ANSWERED;
		}
	}

	private static AttemptKind kindOfCode(int statusCode) {
		if (statusCode == TOO_MANY_REQUESTS) {
			return AttemptKind.TOO_MANY_REQUESTS;
		}
		return ALWAYS_RETRIED.contains(statusCode) ? AttemptKind.SERVICE_FAILURE : AttemptKind.ANSWERED;
	}

	/**
	 * Whether an HTTP status may be retried.
	 * @param statusCode the status code
	 * @return {@code true} for 500, 502, 503, 504, and 429 when enabled
	 */
	public boolean isRetryableStatus(int statusCode) {
		return ALWAYS_RETRIED.contains(statusCode) || (statusCode == TOO_MANY_REQUESTS && this.retryTooManyRequests);
	}

	/**
	 * A short description of a failure for log lines: the status or the I/O exception's type, never a
	 * message that could carry content.
	 * @param failure the failure
	 * @return for example {@code HTTP 503}, {@code I/O ConnectException} or
	 * {@code token unavailable (TimeoutException)}
	 */
	public static String describe(@Nullable Throwable failure) {
		if (failure == null) {
			return "none";
		}
		if (failure instanceof HttpFailure http) {
			return http.description();
		}
		Throwable io = ioCause(failure);
		if (io instanceof TokenUnavailableException noToken) {
			return noToken.description();
		}
		return (io != null) ? "I/O " + io.getClass().getSimpleName() : failure.getClass().getSimpleName();
	}

	private static @Nullable Throwable ioCause(Throwable failure) {
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
			if (t instanceof IOException) {
				return t;
			}
		}
		return null;
	}

}
