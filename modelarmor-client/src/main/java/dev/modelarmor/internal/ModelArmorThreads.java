package dev.modelarmor.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The one place where the starter makes threads: every thread is named {@code modelarmor-<purpose>-N} (numbered
 * per purpose across the process), never holds the JVM (daemon platform threads, or virtual threads, which are
 * daemons), and every pool made here is remembered until it ends, so that {@link #close()} ends them all.
 *
 * <p>Work that waits (a token fetch, a blocking exchange, a cache or Redis operation, a template read, a screening
 * task) runs on virtual threads when these threads are {@linkplain #virtual() virtual}, as Spring Boot's own
 * executors do with {@code spring.threads.virtual.enabled=true} on Java 21 and later; otherwise, and always for
 * work that only hands on (the HTTP client's executor) or that keeps deadlines (the retry timer, the answer
 * deadlines' watcher), on platform threads: a deadline must never wait for a carrier thread that other work holds.
 *
 * <p>Virtual threads come from Spring Framework's {@link VirtualThreadTaskExecutor}, which compiles on Java 17 and
 * refuses, with a clear message, to make one before Java 21.
 */
public final class ModelArmorThreads implements AutoCloseable {

	/** What a thread does, which decides whether it may be virtual. */
	public enum Work {

		/** Waits on I/O or for a result: virtual when the threads are. */
		WAITS,

		/** Only hands work on, or keeps deadlines: always a platform thread. */
		HANDS_ON

	}

	private static final Map<String, AtomicInteger> numbers = new ConcurrentHashMap<>();

	private final @Nullable ThreadFactory virtualThreads;

	private final Set<ExecutorService> pools = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	private ModelArmorThreads(boolean virtual) {
		this.virtualThreads = virtual ? virtualThreadFactory() : null;
	}

	private static ThreadFactory virtualThreadFactory() {
		try {
			return new VirtualThreadTaskExecutor("modelarmor-").getVirtualThreadFactory();
		}
		catch (UnsupportedOperationException ex) {
			throw new IllegalStateException("Virtual threads need Java 21 or later; this is Java "
					+ Runtime.version().feature(), ex);
		}
	}

	/**
	 * Threads that are all daemon platform threads.
	 * @return the threads
	 */
	public static ModelArmorThreads platform() {
		return new ModelArmorThreads(false);
	}

	/**
	 * Threads whose waiting work runs on virtual threads when asked.
	 * @param virtual whether waiting work runs on virtual threads (Java 21 and later)
	 * @return the threads
	 * @throws IllegalStateException when virtual threads are asked for before Java 21
	 */
	public static ModelArmorThreads of(boolean virtual) {
		return new ModelArmorThreads(virtual);
	}

	/**
	 * Whether waiting work runs on virtual threads.
	 * @return whether it does
	 */
	public boolean virtual() {
		return this.virtualThreads != null;
	}

	/**
	 * Whether the threads given run waiting work on virtual threads.
	 * @param threads the threads, or {@code null} for none
	 * @return whether they are virtual; {@code false} for none
	 */
	public static boolean virtual(@Nullable ModelArmorThreads threads) {
		return threads != null && threads.virtual();
	}

	/**
	 * A factory of threads named {@code modelarmor-<purpose>-N}.
	 * @param purpose what the threads do, e.g. {@code token}
	 * @param work whether the work waits (and may run on virtual threads)
	 * @return the factory
	 */
	public ThreadFactory factory(String purpose, Work work) {
		AtomicInteger number = numbers.computeIfAbsent(purpose, (name) -> new AtomicInteger());
		ThreadFactory virtual = (work == Work.WAITS) ? this.virtualThreads : null;
		return (task) -> {
			String name = "modelarmor-" + purpose + "-" + number.incrementAndGet();
			if (virtual != null) {
				Thread thread = virtual.newThread(task);
				thread.setName(name);
				return thread;
			}
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * Starts one thread.
	 * @param purpose what the thread does
	 * @param work whether the work waits
	 * @param task what it runs
	 * @return the started thread
	 */
	public Thread start(String purpose, Work work, Runnable task) {
		Thread thread = factory(purpose, work).newThread(task);
		thread.start();
		return thread;
	}

	/**
	 * A pool of at most {@code maxThreads} threads, started as work comes and ended after idling.
	 * @param purpose what the threads do
	 * @param work whether the work waits
	 * @param maxThreads the most threads
	 * @param queue where work waits for a thread
	 * @param idle how long an idle thread lives
	 * @param rejection what befalls work that finds the queue full, or the pool shut down
	 * @return the pool, which {@link #close()} shuts down unless it ended before
	 */
	public ThreadPoolExecutor pool(String purpose, Work work, int maxThreads, BlockingQueue<Runnable> queue,
			Duration idle, RejectedExecutionHandler rejection) {
		ThreadPoolExecutor pool = new OwnedPool(this.pools, maxThreads, maxThreads, idle, queue,
				factory(purpose, work), rejection);
		pool.allowCoreThreadTimeOut(true);
		return owned(pool);
	}

	/**
	 * A pool that hands each task to an idle thread or to a new one, up to {@code maxThreads}, and never
	 * queues: for work that holds its thread for its whole length.
	 * @param purpose what the threads do
	 * @param work whether the work waits
	 * @param maxThreads the most threads
	 * @param idle how long an idle thread lives
	 * @return the pool, which {@link #close()} shuts down unless it ended before
	 */
	public ThreadPoolExecutor elasticPool(String purpose, Work work, int maxThreads, Duration idle) {
		return owned(new OwnedPool(this.pools, 0, maxThreads, idle, new SynchronousQueue<>(), factory(purpose, work),
				new ThreadPoolExecutor.AbortPolicy()));
	}

	/**
	 * A timer of one thread; cancelled tasks leave its queue at once.
	 * @param purpose what the thread does
	 * @param work whether the work waits
	 * @return the timer, which {@link #close()} shuts down unless it ended before
	 */
	public ScheduledThreadPoolExecutor timer(String purpose, Work work) {
		ScheduledThreadPoolExecutor timer = new OwnedTimer(this.pools, factory(purpose, work));
		timer.setRemoveOnCancelPolicy(true);
		return owned(timer);
	}

	private <E extends ExecutorService> E owned(E pool) {
		this.pools.add(pool);
		if (this.closed) {
			pool.shutdownNow();
		}
		return pool;
	}

	/** The pools made here that have not ended, for tests. */
	int pools() {
		return this.pools.size();
	}

	/**
	 * Shuts down every pool made here that has not ended, interrupting the work under way; a pool made
	 * afterwards is shut down at once.
	 */
	@Override
	public void close() {
		this.closed = true;
		for (ExecutorService pool : this.pools) {
			pool.shutdownNow();
		}
	}

	/** A pool that leaves the set of pools to close once it has ended. */
	private static final class OwnedPool extends ThreadPoolExecutor {

		private final Set<ExecutorService> pools;

		OwnedPool(Set<ExecutorService> pools, int coreThreads, int maxThreads, Duration idle,
				BlockingQueue<Runnable> queue, ThreadFactory threads, RejectedExecutionHandler rejection) {
			super(coreThreads, maxThreads, idle.toNanos(), TimeUnit.NANOSECONDS, queue, threads, rejection);
			this.pools = pools;
		}

		@Override
		protected void terminated() {
			this.pools.remove(this);
		}

	}

	/** A timer that leaves the set of pools to close once it has ended. */
	private static final class OwnedTimer extends ScheduledThreadPoolExecutor {

		private final Set<ExecutorService> pools;

		OwnedTimer(Set<ExecutorService> pools, ThreadFactory threads) {
			super(1, threads);
			this.pools = pools;
		}

		@Override
		protected void terminated() {
			this.pools.remove(this);
		}

	}

}
