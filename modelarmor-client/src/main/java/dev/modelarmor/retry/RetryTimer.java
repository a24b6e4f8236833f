package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.internal.ModelArmorThreads;

/**
 * The timer thread of the non-blocking retries: a retry wait is a task scheduled on it, never a sleeping
 * thread. One timer ({@link #SHARED}) serves every client of the process that has none of its own; the
 * auto-configuration's {@link ShutdownAwareSleeper} has its own, ended with the context. The thread is a daemon and ends after a while without any
 * wait; the next wait starts it again. The task only completes the wait's future, so the next attempt
 * starts on this thread and goes on asynchronously from there.
 */
final class RetryTimer implements RetryDelayer, AutoCloseable {

	private static final long IDLE_SECONDS = 30;

	/** The timer of the clients that have none of their own, for the whole process. */
	static final RetryTimer SHARED = new RetryTimer(ModelArmorThreads.platform());

	private final ScheduledThreadPoolExecutor timer;

	/**
	 * A timer whose thread is made by the threads given; a platform thread, for it keeps the retries' schedule.
	 * @param threads makes the timer's thread
	 */
	RetryTimer(ModelArmorThreads threads) {
		this.timer = threads.timer("retry-timer", ModelArmorThreads.Work.HANDS_ON);
		this.timer.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
		this.timer.allowCoreThreadTimeOut(true);
	}

	@Override
	public CompletableFuture<Void> delay(Duration wait) {
		CompletableFuture<Void> waited = new CompletableFuture<>();
		long nanos = nanos(wait);
		if (nanos <= 0) {
			waited.complete(null);
			return waited;
		}
		ScheduledFuture<?> task;
		try {
			task = this.timer.schedule(() -> waited.complete(null), nanos, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed: the wait is cut short, as at shutdown
			waited.completeExceptionally(ex);
			return waited;
		}
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
	int pending() {
		return this.timer.getQueue().size();
	}

	/** Ends the timer's thread; waits still scheduled never pass, so end them first (as {@link ShutdownAwareSleeper} does). */
	@Override
	public void close() {
		this.timer.shutdownNow();
	}

}
