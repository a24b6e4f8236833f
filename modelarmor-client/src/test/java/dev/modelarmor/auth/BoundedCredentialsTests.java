package dev.modelarmor.auth;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.google.auth.Credentials;
import dev.modelarmor.retry.TokenUnavailableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The token executor is bounded: with every thread and queue place taken by fetches that hang, the next
 * caller fails at once saying the executor is saturated, the waiting callers fail within their own limit,
 * and no more than {@link BoundedCredentials#MAX_THREADS} token threads ever run.
 */
class BoundedCredentialsTests {

	private static final URI URI_ = URI.create("https://modelarmor.us-central1.rep.googleapis.com/");

	@Test
	void aSaturatedExecutorFailsTheNextCallerAtOnceAndTheOthersWithinTheirLimit() throws Exception {
		HangingCredentials hanging = new HangingCredentials();
		int busy = BoundedCredentials.MAX_THREADS + BoundedCredentials.MAX_WAITING;
		ExecutorService callers = Executors.newFixedThreadPool(busy);
		try (BoundedCredentials credentials = new BoundedCredentials(hanging)) {
			List<Future<Throwable>> waiting = new ArrayList<>();
			for (int i = 0; i < busy; i++) {
				waiting.add(callers.submit(() -> catchThrowable(() -> credentials.requestMetadata(URI_, Duration.ofSeconds(2)))));
			}
			assertThat(hanging.running.await(10, TimeUnit.SECONDS)).isTrue();
			awaitQueued(credentials, busy);

			long start = System.nanoTime();
			assertThatExceptionOfType(TokenUnavailableException.class)
				.isThrownBy(() -> credentials.requestMetadata(URI_, Duration.ofSeconds(30)))
				.withMessageContaining("saturated")
				.withMessageContaining(BoundedCredentials.MAX_THREADS + " fetches running");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));

			for (Future<Throwable> caller : waiting) {
				assertThat(caller.get(20, TimeUnit.SECONDS)).isInstanceOf(TokenUnavailableException.class)
					.hasMessageContaining("within 2000 ms");
			}
			assertThat(hanging.largestConcurrency()).isEqualTo(BoundedCredentials.MAX_THREADS);
		}
		finally {
			hanging.release.countDown();
			callers.shutdownNow();
		}
	}

	/** Waits until every busy caller has handed its fetch to the executor (running or queued). */
	private static void awaitQueued(BoundedCredentials credentials, int busy) throws InterruptedException {
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (credentials.pendingFetches() < busy && System.nanoTime() < end) {
			Thread.sleep(10);
		}
		assertThat(credentials.pendingFetches()).isEqualTo(busy);
	}

	/** Every fetch hangs until released, as a token endpoint that accepts and never answers. */
	private static final class HangingCredentials extends Credentials {

		final CountDownLatch release = new CountDownLatch(1);

		final CountDownLatch running = new CountDownLatch(BoundedCredentials.MAX_THREADS);

		private int concurrent;

		private int largest;

		@Override
		public String getAuthenticationType() {
			return "OAuth2";
		}

		@Override
		public Map<String, List<String>> getRequestMetadata(URI uri) {
			synchronized (this) {
				this.concurrent++;
				this.largest = Math.max(this.largest, this.concurrent);
			}
			this.running.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			synchronized (this) {
				this.concurrent--;
			}
			return Map.of();
		}

		synchronized int largestConcurrency() {
			return this.largest;
		}

		@Override
		public boolean hasRequestMetadata() {
			return true;
		}

		@Override
		public boolean hasRequestMetadataOnly() {
			return true;
		}

		@Override
		public void refresh() {
		}

	}

}
