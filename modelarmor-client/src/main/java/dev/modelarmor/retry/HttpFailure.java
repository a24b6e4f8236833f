package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;

/**
 * A failure answered by the server with an HTTP status, as the retry strategy sees it.
 */
public interface HttpFailure {

	/**
	 * The HTTP status code of the answer.
	 * @return the status code
	 */
	int statusCode();

	/**
	 * The server's hint for how long to wait before retrying: a {@code Retry-After} header or a
	 * {@code google.rpc.RetryInfo} error detail.
	 * @return the hint, or empty when the server gave none
	 */
	Optional<Duration> retryAfter();

	/**
	 * What the failure was, for log lines and refusals: never content.
	 * @return {@code HTTP} and the status code, unless the failure knows more
	 */
	default String description() {
		return "HTTP " + statusCode();
	}

}
