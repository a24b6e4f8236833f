package dev.modelarmor.retry;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.retry.backoff.Sleeper;

/**
 * Sleeps between retries until {@link #close()}: then every wait in progress, and every later one,
 * ends at once with {@link RetriesStoppedException}, so that an application shutting down is not held
 * for up to {@code max-backoff} by calls waiting to retry.
 */
public final class ShutdownAwareSleeper implements Sleeper {

	private static final long serialVersionUID = 1L;

	private final transient CountDownLatch closed = new CountDownLatch(1);

	@Override
	public void sleep(long backOffPeriod) throws InterruptedException {
		if (this.closed.await(backOffPeriod, TimeUnit.MILLISECONDS)) {
			throw new RetriesStoppedException();
		}
	}

	/**
	 * Ends every wait now and later.
	 */
	public void close() {
		this.closed.countDown();
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
