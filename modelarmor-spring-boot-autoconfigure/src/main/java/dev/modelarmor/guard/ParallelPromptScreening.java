package dev.modelarmor.guard;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Screens the prompts of side-effect-free {@link ModelArmorGuarded} methods while their bodies run: on a
 * pool of at most {@value #MAX_THREADS} daemon threads with no queue, started at the first such call and
 * shut down with the context. When every thread is busy (or the pool is shut down) the prompt is screened
 * on the caller's thread before the body runs, as without the option: a burst never queues without bound
 * and never waits for a thread.
 */
final class ParallelPromptScreening implements AutoCloseable {

	/** Threads that screen prompts at once; beyond them, calls screen serially. */
	static final int MAX_THREADS = 32;

	private static final long KEEP_ALIVE_SECONDS = 60;

	private final AtomicInteger threads = new AtomicInteger();

	private final ThreadPoolExecutor executor = new ThreadPoolExecutor(0, MAX_THREADS, KEEP_ALIVE_SECONDS,
			TimeUnit.SECONDS, new SynchronousQueue<>(), (runnable) -> {
				Thread thread = new Thread(runnable, "modelarmor-prompt-screening-" + this.threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});

	/**
	 * Starts a screening.
	 * @param screening the screening, bounded by its own retry deadline
	 * @return its decision, to {@link #await(CompletableFuture) await}
	 */
	CompletableFuture<ScreeningDecision> start(Supplier<ScreeningDecision> screening) {
		try {
			return CompletableFuture.supplyAsync(screening, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return screenHere(screening);
		}
	}

	private static CompletableFuture<ScreeningDecision> screenHere(Supplier<ScreeningDecision> screening) {
		CompletableFuture<ScreeningDecision> decision = new CompletableFuture<>();
		try {
			decision.complete(screening.get());
		}
		catch (RuntimeException | Error ex) {
			decision.completeExceptionally(ex);
		}
		return decision;
	}

	/**
	 * Waits for a screening's decision. The screening is bounded by its retry deadline, so the wait is.
	 * @param decision the screening started
	 * @return the decision
	 */
	static ScreeningDecision await(CompletableFuture<ScreeningDecision> decision) {
		try {
			return decision.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	@Override
	public void close() {
		this.executor.shutdown();
	}

}
