package dev.modelarmor.client;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.client.internal.transport.AnswerDeadlines;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The body subscriber behind the answer cap: it asks for everything, keeps the answer whole up to the
 * limit, and at the limit cancels the subscription and completes with exactly the limit's bytes, its
 * buffer never larger than the limit.
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

		byte[] answer = bytes.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS);
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
		assertThat(bytes.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).hasSize(limit);
		assertThat(bytes.capacity()).isEqualTo(limit);
	}

	@Test
	void oneBufferLargerThanTheLimitIsCutAtIt() throws Exception {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = subscribed(5_000);

		bytes.onNext(List.of(ByteBuffer.wrap(filled(1_000_000, (byte) 'x'))));

		assertThat(this.subscription.cancelled).isTrue();
		assertThat(bytes.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).hasSize(5_000);
		assertThat(bytes.capacity()).isEqualTo(5_000);
	}

	private BufferedJdkClientHttpRequest.LimitedBytes subscribed(int limit) {
		BufferedJdkClientHttpRequest.LimitedBytes bytes = new BufferedJdkClientHttpRequest.LimitedBytes(limit,
				System.nanoTime() + TimeUnit.SECONDS.toNanos(30), new AnswerDeadlines());
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
