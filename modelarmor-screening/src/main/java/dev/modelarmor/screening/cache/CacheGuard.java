package dev.modelarmor.screening.cache;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.modelarmor.internal.ModelArmorThreads;
import org.jspecify.annotations.Nullable;

/**
 * Runs the operations of a cache where they can be abandoned, each bounded by a timeout, and skips the
 * cache for a while once it has failed several times in a row. Spring's {@code Cache} blocks (a Redis
 * cache waits out its client's command timeout, 60 s with Lettuce's defaults): its operations run on a few
 * daemon threads of this guard's own, {@code modelarmor-cache-N}, and the caller waits for one at most the
 * timeout. An operation that times out skips the cache at once: it has held a caller for the whole timeout,
 * and the next would hold another as long (a stalled or stopped Redis makes every operation time out). One
 * that fails or finds no free thread is a failure, which costs its caller little; after
 * {@code failuresToSkip} of them in a row the cache is skipped. A skip lasts {@code skipFor}, then one
 * operation is let through to try the cache again. The caller is told of every change of state, once. A cache known to live
 * in this process (a map, Caffeine) never waits on anything: its operations run on the caller's thread.
 */
final class CacheGuard implements AutoCloseable {

	/** Threads that run cache operations: a stalled cache holds them, and then no more are started. */
	private static final int THREADS = 4;

	/** Operations waiting for a thread; one more is refused as a failure, at once. */
	private static final int QUEUE = 32;

	private final Duration timeout;

	private final int failuresToSkip;

	private final long skipForMillis;

	private final Clock clock;

	private final Consumer<Boolean> skipping;

	/** Where operations run, or {@code null} to run them on the caller's thread (a cache in this process). */
	private final @Nullable ThreadPoolExecutor executor;

	private final Object lock = new Object();

	private int failures;

	/** When the skip ends, or {@code -1} while the cache is used. */
	private long skipUntil = -1;

	/** An operation let through after a skip, whose outcome decides whether the skip ends. */
	private boolean probing;

	CacheGuard(Duration timeout, int failuresToSkip, Duration skipFor, Clock clock, Consumer<Boolean> skipping,
			boolean inProcess) {
		this(timeout, failuresToSkip, skipFor, clock, skipping, inProcess, ModelArmorThreads.platform());
	}

	CacheGuard(Duration timeout, int failuresToSkip, Duration skipFor, Clock clock, Consumer<Boolean> skipping,
			boolean inProcess, ModelArmorThreads threads) {
		this.timeout = timeout;
		this.failuresToSkip = failuresToSkip;
		this.skipForMillis = skipFor.toMillis();
		this.clock = clock;
		this.skipping = skipping;
		this.executor = inProcess ? null : newExecutor(threads);
	}

	private static ThreadPoolExecutor newExecutor(ModelArmorThreads threads) {
		return threads.pool("cache", ModelArmorThreads.Work.WAITS, THREADS,
				new ArrayBlockingQueue<>(QUEUE), Duration.ofSeconds(30), new ThreadPoolExecutor.AbortPolicy());
	}

	/**
	 * Whether the cache may be used now: not while it is skipped, except for one operation once the skip
	 * has ended.
	 */
	boolean usable() {
		synchronized (this.lock) {
			if (this.skipUntil < 0) {
				return true;
			}
			if (this.probing || this.clock.millis() < this.skipUntil) {
				return false;
			}
			this.probing = true;
			return true;
		}
	}

	/**
	 * Whether the last operation failed: a write after a failed lookup would only wait again.
	 */
	boolean failing() {
		synchronized (this.lock) {
			return this.failures > 0;
		}
	}

	/**
	 * Runs an operation, waiting for it at most the timeout.
	 * @param operation the operation
	 * @return what it returned
	 * @throws CacheFailure when it failed, timed out or could not start; the caller is the one to log it
	 */
	<T> @Nullable T run(Supplier<@Nullable T> operation) throws CacheFailure {
		ThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			// A map in this process: nothing to wait for, no thread to hand over to.
			try {
				T result = operation.get();
				succeeded();
				return result;
			}
			catch (RuntimeException ex) {
				failed();
				throw new CacheFailure(ex);
			}
		}
		CompletableFuture<@Nullable T> future;
		try {
			future = CompletableFuture.supplyAsync(operation, executor);
		}
		catch (RuntimeException ex) {
			failed();
			throw new CacheFailure(ex);
		}
		try {
			T result = future.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			succeeded();
			return result;
		}
		catch (TimeoutException ex) {
			// Not yet started: never starts. Started: runs on its thread until the cache gives up.
			future.cancel(false);
			timedOut();
			throw new CacheFailure(ex);
		}
		catch (ExecutionException ex) {
			failed();
			throw new CacheFailure((ex.getCause() != null) ? ex.getCause() : ex);
		}
		catch (InterruptedException ex) {
			future.cancel(false);
			Thread.currentThread().interrupt();
			failed();
			throw new CacheFailure(ex);
		}
	}

	private void succeeded() {
		boolean resumed;
		synchronized (this.lock) {
			resumed = this.skipUntil >= 0;
			this.failures = 0;
			this.skipUntil = -1;
			this.probing = false;
		}
		if (resumed) {
			this.skipping.accept(false);
		}
	}

	private void failed() {
		failed(false);
	}

	private void timedOut() {
		failed(true);
	}

	private void failed(boolean timedOut) {
		boolean skipped;
		synchronized (this.lock) {
			this.failures++;
			boolean wasSkipping = this.skipUntil >= 0;
			if (wasSkipping || timedOut || this.failures >= this.failuresToSkip) {
				this.skipUntil = this.clock.millis() + this.skipForMillis;
			}
			this.probing = false;
			skipped = !wasSkipping && this.skipUntil >= 0;
		}
		if (skipped) {
			this.skipping.accept(true);
		}
	}

	/** How long a skip lasts. */
	Duration skipFor() {
		return Duration.ofMillis(this.skipForMillis);
	}

	/** The timeout of each operation. */
	Duration timeout() {
		return this.timeout;
	}

	@Override
	public void close() {
		ThreadPoolExecutor executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	/** A cache operation that failed, timed out or could not start. */
	static final class CacheFailure extends Exception {

		private static final long serialVersionUID = 1L;

		CacheFailure(Throwable cause) {
			super(null, cause, false, false);
		}

	}

}
