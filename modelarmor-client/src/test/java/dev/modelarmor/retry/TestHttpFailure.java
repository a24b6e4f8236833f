package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Optional;

/**
 * A failed attempt answered with an HTTP status, optionally with a server retry hint.
 */
final class TestHttpFailure extends RuntimeException implements HttpFailure {

	private final int statusCode;

	private final Duration retryAfter;

	private TestHttpFailure(int statusCode, Duration retryAfter, String message) {
		super(message);
		this.statusCode = statusCode;
		this.retryAfter = retryAfter;
	}

	static TestHttpFailure status(int statusCode) {
		return new TestHttpFailure(statusCode, null, "HTTP " + statusCode);
	}

	static TestHttpFailure status(int statusCode, Duration retryAfter) {
		return new TestHttpFailure(statusCode, retryAfter, "HTTP " + statusCode + " retry after " + retryAfter);
	}

	static TestHttpFailure withMessage(int statusCode, String message) {
		return new TestHttpFailure(statusCode, null, message);
	}

	@Override
	public int statusCode() {
		return this.statusCode;
	}

	@Override
	public Optional<Duration> retryAfter() {
		return Optional.ofNullable(this.retryAfter);
	}

}
