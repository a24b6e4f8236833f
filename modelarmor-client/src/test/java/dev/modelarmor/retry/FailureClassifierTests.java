package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.AttemptKind;
import dev.modelarmor.retry.internal.FailureClassifier;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class FailureClassifierTests {

	@ParameterizedTest
	@CsvSource({ "200, ANSWERED", "400, ANSWERED", "413, ANSWERED", "429, TOO_MANY_REQUESTS", "500, SERVICE_FAILURE",
			"502, SERVICE_FAILURE", "503, SERVICE_FAILURE", "504, SERVICE_FAILURE", "io_error, SERVICE_FAILURE",
			"token_unavailable, NOT_SENT", "none, NOT_SENT", "garbage, ANSWERED" })
	void eachStatusIsClassifiedOnceForThePolicyTheBudgetAndTheBreaker(String status, AttemptKind kind) {
		assertThat(FailureClassifier.kindOfStatus(status)).isEqualTo(kind);
		if (status.chars().allMatch(Character::isDigit)) {
			assertThat(FailureClassifier.kindOf(TestHttpFailure.status(Integer.parseInt(status)))).isEqualTo(kind);
		}
	}

	@Test
	void aFailureWithoutAnAnswerIsAServiceFailureAndOneWithoutATokenWasNotSent() {
		assertThat(FailureClassifier.kindOf(new ResourceAccessException("x", new ConnectException("refused"))))
			.isEqualTo(AttemptKind.SERVICE_FAILURE);
		assertThat(FailureClassifier.kindOf(new IllegalStateException("not an I/O failure"))).isEqualTo(AttemptKind.ANSWERED);
	}


	private static final String SECRET = "prompt: my card number is 4111 1111 1111 1111";

	private final FailureClassifier classifier = new FailureClassifier(true);

	private final FailureClassifier without429 = new FailureClassifier(false);

	@ParameterizedTest(name = "HTTP {0}: retried={1}, retried without 429={2}")
	@CsvSource({ "400, false, false", "401, false, false", "403, false, false", "404, false, false",
			"408, false, false", "409, false, false", "429, true, false", "500, true, true", "501, false, false",
			"502, true, true", "503, true, true", "504, true, true", "505, false, false" })
	void statusesAreRetriedAsGoogleRecommends(int status, boolean retried, boolean retriedWithout429) {
		assertThat(this.classifier.isRetryable(TestHttpFailure.status(status))).isEqualTo(retried);
		assertThat(this.classifier.isRetryableStatus(status)).isEqualTo(retried);
		assertThat(this.without429.isRetryable(TestHttpFailure.status(status))).isEqualTo(retriedWithout429);
		assertThat(this.without429.isRetryableStatus(status)).isEqualTo(retriedWithout429);
	}

	@Test
	void retryHintDoesNotMakeAStatusRetryable() {
		assertThat(this.classifier.isRetryable(TestHttpFailure.status(400, Duration.ofSeconds(1)))).isFalse();
	}

	@Test
	void refusedConnectionIsRetried() {
		assertThat(this.classifier.isRetryable(new ConnectException("Connection refused"))).isTrue();
	}

	@Test
	void readTimeoutIsRetried() {
		assertThat(this.classifier.isRetryable(new SocketTimeoutException("Read timed out"))).isTrue();
	}

	@Test
	void ioFailureWrappedByRestClientIsRetried() {
		ResourceAccessException wrapped = new ResourceAccessException("I/O error on POST",
				new SocketTimeoutException("Read timed out"));
		assertThat(this.classifier.isRetryable(wrapped)).isTrue();
		assertThat(this.without429.isRetryable(wrapped)).isTrue();
	}

	@Test
	void ioFailureNestedSeveralLevelsDeepIsRetried() {
		RuntimeException nested = new IllegalStateException("outer",
				new RuntimeException("middle", new UncheckedIOException(new EOFException())));
		assertThat(this.classifier.isRetryable(nested)).isTrue();
	}

	@Test
	void illegalStateIsNotRetried() {
		assertThat(this.classifier.isRetryable(new IllegalStateException("bug"))).isFalse();
	}

	@Test
	void nonIoCauseChainIsNotRetried() {
		assertThat(this.classifier.isRetryable(new RuntimeException(new IllegalArgumentException()))).isFalse();
	}

	@Test
	void causeCycleWithoutIoFailureEndsAsNotRetried() {
		RuntimeException first = new RuntimeException("first");
		RuntimeException second = new RuntimeException("second", first);
		first.initCause(second);
		assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
			assertThat(this.classifier.isRetryable(first)).isFalse();
			assertThat(FailureClassifier.describe(first)).isEqualTo("RuntimeException");
		});
	}

	@Test
	void describeNamesTheStatus() {
		assertThat(FailureClassifier.describe(TestHttpFailure.status(503))).isEqualTo("HTTP 503");
	}

	@Test
	void describeNamesTheIoFailureType() {
		assertThat(FailureClassifier.describe(new ResourceAccessException("x", new ConnectException("refused"))))
			.isEqualTo("I/O ConnectException");
	}

	@Test
	void describeOfNothingIsNone() {
		assertThat(FailureClassifier.describe(null)).isEqualTo("none");
	}

	@Test
	void describeNeverIncludesAnExceptionMessage() {
		Throwable[] failures = { TestHttpFailure.withMessage(400, SECRET), new IllegalStateException(SECRET),
				new ResourceAccessException(SECRET, new IOException(SECRET)), new ConnectException(SECRET),
				new RuntimeException(SECRET, new IllegalArgumentException(SECRET)) };
		for (Throwable failure : failures) {
			assertThat(failure.getMessage()).contains(SECRET);
			assertThat(FailureClassifier.describe(failure)).as(failure.getClass().getName())
				.doesNotContain(SECRET)
				.doesNotContain("4111")
				.doesNotContain("prompt");
		}
	}

}
