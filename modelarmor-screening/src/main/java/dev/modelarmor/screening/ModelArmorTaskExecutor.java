package dev.modelarmor.screening;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;

import dev.modelarmor.internal.ModelArmorThreads;
import org.jspecify.annotations.Nullable;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.util.Assert;

/**
 * Where the starter's background work runs: the windows of long text and the prompts screened while a
 * model or a method body runs. Bounded: at most a number of tasks run at once (and, on platform threads,
 * wait in a bounded queue); beyond that a task runs on the thread that hands it over, so a burst slows
 * its callers down instead of queueing without bound. Once {@link #close() closed}, work is refused with a
 * {@link RejectedExecutionException}. Each task runs through the {@link TaskDecorator} given, which carries
 * the caller's observation, tracing context and MDC over to the thread that runs it.
 *
 * <p>Not an {@link Executor} itself, so that it never stands in for the application's own executor bean
 * (Spring Boot backs off its {@code applicationTaskExecutor} when any {@code Executor} bean exists). Define
 * a bean of this type to replace the starter's. Thread-safe.
 */
public final class ModelArmorTaskExecutor implements AutoCloseable {

	/** Tasks that run at once when nothing else is said. */
	public static final int DEFAULT_CONCURRENCY = 64;

	/**
	 * Tasks of platform threads that wait for a thread when nothing else is said: none, a task that finds
	 * every thread busy runs on its caller at once rather than wait behind others.
	 */
	public static final int DEFAULT_QUEUE_CAPACITY = 0;

	/** What the starter's own executor's threads are named after: {@code modelarmor-screening-N}. */
	public static final String SCREENING = "screening";

	private static final Duration KEEP_ALIVE = Duration.ofSeconds(60);

	private final Executor delegate;

	private final AutoCloseable closer;

	private final TaskDecorator decorator;

	private volatile boolean closed;

	private ModelArmorTaskExecutor(Executor delegate, AutoCloseable closer, @Nullable TaskDecorator decorator) {
		this.delegate = delegate;
		this.closer = closer;
		this.decorator = (decorator != null) ? decorator : (task) -> task;
	}

	/**
	 * An executor on daemon platform threads named {@code modelarmor-<purpose>-N}, none while idle.
	 * @param purpose what its threads do, in their names
	 * @param maxThreads the most threads
	 * @param queueCapacity the most tasks that wait for a thread
	 * @param decorator carries the caller's context to the task, or {@code null}
	 * @return the executor
	 */
	public static ModelArmorTaskExecutor platformThreads(String purpose, int maxThreads, int queueCapacity,
			@Nullable TaskDecorator decorator) {
		Assert.isTrue(maxThreads > 0, "maxThreads must be positive");
		Assert.isTrue(queueCapacity >= 0, "queueCapacity must not be negative");
		ThreadPoolExecutor pool = ModelArmorThreads.platform()
			.pool(purpose, ModelArmorThreads.Work.WAITS, maxThreads,
					(queueCapacity > 0) ? new ArrayBlockingQueue<>(queueCapacity) : new SynchronousQueue<>(), KEEP_ALIVE,
					new ThreadPoolExecutor.AbortPolicy());
		return new ModelArmorTaskExecutor(pool, pool::shutdownNow, decorator);
	}

	/**
	 * An executor that starts a virtual thread named {@code modelarmor-screening-N} per task, at most a number at
	 * once. Needs Java 21.
	 * @param concurrencyLimit the most tasks that run at once
	 * @param decorator carries the caller's context to the task, or {@code null}
	 * @return the executor
	 * @throws IllegalStateException before Java 21
	 */
	public static ModelArmorTaskExecutor virtualThreads(int concurrencyLimit, @Nullable TaskDecorator decorator) {
		Assert.isTrue(concurrencyLimit > 0, "concurrencyLimit must be positive");
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor(
				ModelArmorThreads.of(true).factory(SCREENING, ModelArmorThreads.Work.WAITS));
		executor.setConcurrencyLimit(concurrencyLimit);
		executor.setRejectTasksWhenLimitReached(true);
		return new ModelArmorTaskExecutor(executor, executor::close, null).decorated(decorator);
	}

	private ModelArmorTaskExecutor decorated(@Nullable TaskDecorator decorator) {
		return new ModelArmorTaskExecutor(this.delegate, this.closer, decorator);
	}

	/**
	 * Runs a task on one of the executor's threads, or on the calling thread when all are busy.
	 * @param task the task
	 * @throws RejectedExecutionException when the executor is closed
	 */
	public void execute(Runnable task) {
		if (this.closed) {
			throw new RejectedExecutionException("The Model Armor task executor is closed");
		}
		Runnable decorated = this.decorator.decorate(task);
		try {
			this.delegate.execute(decorated);
		}
		catch (RejectedExecutionException ex) {
			if (this.closed) {
				throw new RejectedExecutionException("The Model Armor task executor is closed", ex);
			}
			// Every thread busy: the caller does the work, as without an executor.
			task.run();
		}
	}

	/**
	 * This executor as an {@link Executor}, to hand to {@link java.util.concurrent.CompletableFuture}.
	 * @return a view that calls {@link #execute(Runnable)}
	 */
	public Executor asExecutor() {
		return this::execute;
	}

	/**
	 * Whether {@link #close()} was called.
	 * @return whether the executor refuses work
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Refuses further work and interrupts the tasks that run: their callers get a failure.
	 */
	@Override
	public void close() {
		this.closed = true;
		try {
			this.closer.close();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not close the Model Armor task executor", ex);
		}
	}

}
