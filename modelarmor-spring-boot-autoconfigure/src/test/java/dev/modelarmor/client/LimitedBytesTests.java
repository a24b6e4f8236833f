package dev.modelarmor.client;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The body subscriber behind the answer cap: it asks for everything, keeps the answer whole up to the
 * limit, and at the limit cancels the subscription and completes with exactly the limit's bytes, its
 * buffer never larger than the limit; the caller waits for the last byte until the exchange's deadline.
 */
class LimitedBytesTests {

	private final Subscription subscription = new Subscription();

	@Test
	void anAnswerBelowTheLimitArrivesWholeAndTheSubscriptionStays() throws Exception {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(10_000);

		for (int i = 0; i < 100; i++) {
			bytes.onNext(List.of(ByteBuffer.wrap(filled(33, (byte) i)), ByteBuffer.wrap(filled(1, (byte) -i))));
		}
		bytes.onComplete();

		byte[] answer = bytes.await(inOneSecond());
		assertThat(answer).hasSize(3_400);
		assertThat(answer[0]).isEqualTo((byte) 0);
		assertThat(answer[33]).isEqualTo((byte) 0);
		assertThat(answer[34 * 99]).isEqualTo((byte) 99);
		assertThat(answer[34 * 99 + 33]).isEqualTo((byte) -99);
		assertThat(this.subscription.requested).isEqualTo(Long.MAX_VALUE);
		assertThat(this.subscription.cancelled).isFalse();
		assertThat(bytes.capacity()).isLessThanOrEqualTo(10_000);
	}

	@Test
	void atTheLimitTheSubscriptionIsCancelledAndTheAnswerHasExactlyTheLimitsBytes() throws Exception {
		int limit = 1_000_001;
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(limit);

		for (int i = 0; i < 40 && !this.subscription.cancelled; i++) {
			bytes.onNext(List.of(ByteBuffer.wrap(filled(30_000, (byte) ' ')), ByteBuffer.wrap(filled(7, (byte) 'x'))));
			assertThat(bytes.capacity()).isLessThanOrEqualTo(limit);
		}

		assertThat(this.subscription.cancelled).isTrue();
		assertThat(bytes.await(inOneSecond())).hasSize(limit);
		assertThat(bytes.capacity()).isEqualTo(limit);
	}

	@Test
	void oneBufferLargerThanTheLimitIsCutAtIt() throws Exception {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(5_000);

		bytes.onNext(List.of(ByteBuffer.wrap(filled(1_000_000, (byte) 'x'))));

		assertThat(this.subscription.cancelled).isTrue();
		assertThat(bytes.await(inOneSecond())).hasSize(5_000);
		assertThat(bytes.capacity()).isEqualTo(5_000);
	}

	@Test
	void theBodyIsTheSubscriberItselfAsSoonAsTheHeadersAreIn() {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(10_000);

		assertThat(bytes.getBody().toCompletableFuture()).isCompletedWithValue(bytes);
	}

	@Test
	void anAnswerNotWholeByTheDeadlineEndsInATimeoutAndStopsBeingReceived() {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(10_000);
		bytes.onNext(List.of(ByteBuffer.wrap(filled(100, (byte) 'x'))));

		long start = System.nanoTime();
		assertThatExceptionOfType(HttpTimeoutException.class)
			.isThrownBy(() -> bytes.await(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200)))
			.withMessage("Request timed out");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(150),
				Duration.ofSeconds(5));
		assertThat(this.subscription.cancelled).isTrue();
	}

	@Test
	void aDeadlineAlreadyPastEndsTheWaitAtOnceUnlessTheAnswerIsWhole() throws Exception {
		BufferedJdkClientHttpRequest.LimitedBytes stalled = subscribed(10_000);
		assertThatExceptionOfType(HttpTimeoutException.class).isThrownBy(() -> stalled.await(System.nanoTime() - 1));

		BufferedJdkClientHttpRequest.LimitedBytes whole = new BufferedJdkClientHttpRequest.LimitedBytes(10);
		whole.onSubscribe(new Subscription());
		whole.onNext(List.of(ByteBuffer.wrap(filled(3, (byte) 'x'))));
		whole.onComplete();
		assertThat(whole.await(System.nanoTime() - 1)).hasSize(3);
	}

	@Test
	void aFailureWhileReceivingIsAnIOException() {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(10_000);
		IOException reset = new IOException("connection reset");
		bytes.onError(reset);
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> bytes.await(inOneSecond())).isSameAs(reset);

		BufferedJdkClientHttpRequest.LimitedBytes other = subscribed(10_000);
		other.onError(new IllegalStateException("not I/O"));
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> other.await(inOneSecond()))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	private static long inOneSecond() {
		return System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
	}

	private BufferedJdkClientHttpRequest.LimitedBytes subscribed(int limit) {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = new BufferedJdkClientHttpRequest.LimitedBytes(limit);
		bytes.onSubscribe(this.subscription);
		return bytes;
	}

	private static byte[] filled(int length, byte value) {
		byte[] bytes = new byte[length];
		java.util.Arrays.fill(bytes, value);
		return bytes;
	}

	private static final class Subscription implements Flow.Subscription {

		private long requested;

		private boolean cancelled;

		@Override
		public void request(long n) {
			this.requested += n;
		}

		@Override
		public void cancel() {
			this.cancelled = true;
		}

	}

}
