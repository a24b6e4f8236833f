package dev.modelarmor.client.internal.transport;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The exchange slots of one client ({@link DeadlineBoundedRequestFactory#MAX_EXCHANGES_IN_FLIGHT}), for both
 * paths: a blocking request waits for a permit as from any {@link Semaphore}; a non-blocking one that finds
 * none free is queued as a future, and a slot given back goes to the first such future still waiting
 * before it goes back to the semaphore. A queued future fails with a {@link java.util.concurrent.TimeoutException}
 * once its timeout has passed.
 */
public final class ExchangeSlots extends Semaphore {

	private static final long serialVersionUID = 1L;

	private final transient Queue<CompletableFuture<Void>> waiting = new ConcurrentLinkedQueue<>();

	public ExchangeSlots(int permits) {
		super(permits);
	}

	/**
	 * A slot, now or once one is given back.
	 * @param timeout the longest wait
	 * @return a future that completes holding the slot, or fails when the timeout passed
	 */
	public CompletableFuture<Void> acquireAsync(Duration timeout) {
		if (tryAcquire()) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Void> slot = new CompletableFuture<>();
		this.waiting.add(slot);
		if (tryAcquire() && !slot.complete(null)) {
			// a slot given back meanwhile was handed to this future already: one is enough
			super.release();
		}
		if (!slot.isDone()) {
			slot.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		slot.whenComplete((held, failure) -> {
			if (failure != null) {
				this.waiting.remove(slot);
			}
		});
		return slot;
	}

	@Override
	public void release() {
		CompletableFuture<Void> next;
		while ((next = this.waiting.poll()) != null) {
			if (next.complete(null)) {
				return;
			}
		}
		super.release();
	}

	/** Futures waiting for a slot, for tests. */
	public int waiting() {
		return this.waiting.size();
	}

}
