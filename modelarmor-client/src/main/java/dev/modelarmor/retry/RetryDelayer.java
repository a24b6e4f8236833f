package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.springframework.retry.backoff.Sleeper;

/**
 * Waits before a retry without holding a thread: the non-blocking path's counterpart of the
 * {@link Sleeper}. The wait is a future that completes once it has passed; cancelling it drops the timer,
 * and a future that fails means the wait was cut short (the application is shutting down), which ends the
 * call as {@link CallOutcome#INTERRUPTED}.
 */
@FunctionalInterface
public interface RetryDelayer {

	/**
	 * Starts a wait.
	 * @param wait how long to wait; never negative
	 * @return a future that completes when the wait has passed, or fails when it was cut short
	 */
	CompletableFuture<Void> delay(Duration wait);

	/**
	 * Waits on one daemon timer thread shared by every client of the application, which ends when idle.
	 * @return the delayer
	 */
	static RetryDelayer scheduled() {
		return RetryTimer.SHARED;
	}

	/**
	 * Waits with a sleeper, on the thread that decides the retry: for virtual sleepers in tests, which move
	 * their clock forward and return at once. A real sleeper would hold that thread.
	 * @param sleeper performs the waits
	 * @return the delayer
	 */
	static RetryDelayer sleeping(Sleeper sleeper) {
		return (wait) -> {
			try {
				sleeper.sleep(BackoffSchedule.saturatedMillis(wait));
				CompletableFuture<Void> slept = new CompletableFuture<>();
				slept.complete(null);
				return slept;
			}
			catch (InterruptedException ex) {
				if (ex.getClass() == InterruptedException.class) {
					Thread.currentThread().interrupt();
				}
				return CompletableFuture.failedFuture(ex);
			}
		};
	}

}
