package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one timer thread of the non-blocking retries, shared by every client: a retry wait is a task
 * scheduled on it, never a sleeping thread. The thread is a daemon and ends after a while without any
 * wait; the next wait starts it again. The task only completes the wait's future, so the next attempt
 * starts on this thread and goes on asynchronously from there.
 */
final class RetryTimer {

	private static final long IDLE_SECONDS = 30;

	private static final ScheduledThreadPoolExecutor timer = create();

	static final RetryDelayer DELAYER = RetryTimer::delay;

	private RetryTimer() {
	}

	private static ScheduledThreadPoolExecutor create() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "modelarmor-retry-timer");
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		executor.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	static CompletableFuture<Void> delay(Duration wait) {
		CompletableFuture<Void> waited = new CompletableFuture<>();
		long nanos = nanos(wait);
		if (nanos <= 0) {
			waited.complete(null);
			return waited;
		}
		ScheduledFuture<?> task = timer.schedule(() -> waited.complete(null), nanos, TimeUnit.NANOSECONDS);
		waited.whenComplete((done, failure) -> {
			if (waited.isCancelled()) {
				task.cancel(false);
			}
		});
		return waited;
	}

	private static long nanos(Duration wait) {
		try {
			return wait.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/** The waits scheduled and not yet passed, for tests. */
	static int pending() {
		return timer.getQueue().size();
	}

}
