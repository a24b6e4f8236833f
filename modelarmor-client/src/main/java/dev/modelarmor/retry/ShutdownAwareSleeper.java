package dev.modelarmor.retry;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.internal.ModelArmorThreads;

import org.springframework.retry.backoff.Sleeper;

/**
 * Sleeps between retries until {@link #close()}: then every wait in progress, and every later one,
 * ends at once with {@link RetriesStoppedException}, so that an application shutting down is not held
 * for up to {@code max-backoff} by calls waiting to retry. As a {@link RetryDelayer} it does the same for the
 * non-blocking path's waits, scheduled on a timer thread of its own ({@code modelarmor-retry-timer-N}, ended
 * when idle and at close): they fail at close.
 */
public final class ShutdownAwareSleeper implements Sleeper, RetryDelayer {

	private static final long serialVersionUID = 1L;

	private final transient CountDownLatch closed = new CountDownLatch(1);

	private final transient Set<CompletableFuture<Void>> waiting = ConcurrentHashMap.newKeySet();

	private final transient RetryTimer timer = new RetryTimer(ModelArmorThreads.platform());

	@Override
	public void sleep(long backOffPeriod) throws InterruptedException {
		if (this.closed.await(backOffPeriod, TimeUnit.MILLISECONDS)) {
			throw new RetriesStoppedException();
		}
	}

	@Override
	public CompletableFuture<Void> delay(Duration wait) {
		if (this.closed.getCount() == 0) {
			return CompletableFuture.failedFuture(new RetriesStoppedException());
		}
		CompletableFuture<Void> waited = this.timer.delay(wait);
		this.waiting.add(waited);
		waited.whenComplete((done, failure) -> this.waiting.remove(waited));
		if (this.closed.getCount() == 0) {
			waited.completeExceptionally(new RetriesStoppedException());
		}
		return waited;
	}

	/**
	 * Ends every wait now and later, and the timer's thread.
	 */
	public void close() {
		this.closed.countDown();
		for (CompletableFuture<Void> waited : this.waiting) {
			waited.completeExceptionally(new RetriesStoppedException());
		}
		this.timer.close();
	}

	/**
	 * A wait ended because retrying was stopped, not because the thread was interrupted.
	 */
	static final class RetriesStoppedException extends InterruptedException {

		private static final long serialVersionUID = 1L;

		RetriesStoppedException() {
			super("Model Armor retries stopped: the application is shutting down");
		}

	}

}
