package dev.modelarmor.client.internal.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * Ends the answers that have not come whole by their deadline, on one daemon thread per transport. The
 * JDK client's own timer ends an exchange only until the headers; each answer's body is watched here
 * until its last byte.
 *
 * <p>Why not {@code CompletableFuture.orTimeout}: it schedules a task per exchange on the JDK's shared
 * delay thread, and since each exchange's task is the earliest one there once the previous exchange has
 * removed its own, every exchange wakes that thread. Here an answer is only added to a set; the watcher is
 * woken only when an answer is due before the moment it already plans to wake at (the first answer, or an
 * attempt cut short by the retry deadline). Otherwise it wakes when the earliest answer it knew of is due,
 * finds it long gone, and sleeps until the next one: with a steady stream of calls, about once per read
 * timeout instead of once per call.
 */
public final class AnswerDeadlines implements AutoCloseable {

	private static final AtomicInteger threads = new AtomicInteger();

	/** An answer being received, and when it must be whole. */
	public interface Watched {

		/** @return the {@link System#nanoTime()} by which the answer must be whole */
		long deadlineNanos();

		/** Ends the answer: its deadline passed. Called on the watcher's thread. */
		void expire();

	}

	private final Set<Watched> watched = ConcurrentHashMap.newKeySet();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition earlierDeadline = this.lock.newCondition();

	/** Guarded by {@link #lock}. */
	private @Nullable Thread watcher;

	/** Guarded by {@link #lock}: whether the watcher sleeps until {@link #plannedWake}, or until woken. */
	private boolean planned;

	/** Guarded by {@link #lock}. */
	private long plannedWake;

	/** Guarded by {@link #lock}. */
	private boolean closed;

	/**
	 * Watches an answer until {@link #done(Watched)}.
	 * @param answer the answer
	 */
	public void watch(Watched answer) {
		this.watched.add(answer);
		this.lock.lock();
		try {
			if (this.watcher == null) {
				Thread thread = new Thread(this::watchWhileNeeded, "modelarmor-http-deadlines-" + threads.incrementAndGet());
				thread.setDaemon(true);
				this.watcher = thread;
				thread.start();
			}
			else if (!this.planned || answer.deadlineNanos() - this.plannedWake < 0) {
				this.earlierDeadline.signal();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The answer came whole (or failed): it is no longer watched.
	 * @param answer the answer
	 */
	public void done(Watched answer) {
		this.watched.remove(answer);
	}

	/** How many answers are watched, for tests. */
	public int watching() {
		return this.watched.size();
	}

	/** Until closed, and after that until the last answer still received has come or expired. */
	private void watchWhileNeeded() {
		this.lock.lock();
		try {
			while (!this.closed || !this.watched.isEmpty()) {
				long now = System.nanoTime();
				boolean any = false;
				long earliest = 0;
				for (Watched answer : this.watched) {
					long due = answer.deadlineNanos();
					if (due - now <= 0) {
						if (this.watched.remove(answer)) {
							expire(answer);
						}
					}
					else if (!any || due - earliest < 0) {
						any = true;
						earliest = due;
					}
				}
				if (this.closed && this.watched.isEmpty()) {
					break;
				}
				this.planned = any;
				this.plannedWake = earliest;
				if (any) {
					this.earlierDeadline.awaitNanos(earliest - now);
				}
				else {
					this.earlierDeadline.await();
				}
			}
		}
		catch (InterruptedException ex) {
			// only this class starts the thread; nothing else interrupts it
		}
		finally {
			this.watcher = null;
			this.planned = false;
			this.lock.unlock();
		}
	}

	/** Whether the watcher's thread runs, for tests. */
	public boolean isWatching() {
		this.lock.lock();
		try {
			return this.watcher != null;
		}
		finally {
			this.lock.unlock();
		}
	}

	private static void expire(Watched answer) {
		try {
			answer.expire();
		}
		catch (RuntimeException ex) {
			// an answer that fails to end must not stop the watcher for the others
		}
	}

	/**
	 * Lets the watcher's thread end once no answer is watched any more: the answers still being received
	 * keep their deadlines (on Java 21 and later, closing the JDK client waits for them).
	 */
	@Override
	public void close() {
		this.lock.lock();
		try {
			this.closed = true;
			this.earlierDeadline.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

}
