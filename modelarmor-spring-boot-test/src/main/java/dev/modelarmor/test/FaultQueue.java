package dev.modelarmor.test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The faults the stand-in answers with, first in first out, one use per sanitize request: a fault used
 * {@code n} times stays at the head for its next {@code n - 1} requests, one used always never leaves.
 */
final class FaultQueue {

	/** What a fault does. */
	enum Kind {

		/** Answer an HTTP error status. */
		STATUS,

		/** Answer normally, after a delay. */
		DELAY,

		/** Do not answer: hold the request until the client gives up or the stand-in is reset. */
		STALL

	}

	/** {@link QueuedFault#uses} of a fault that is used for every request from now on. */
	static final int ALWAYS = -1;

	private final Deque<QueuedFault> faults = new ArrayDeque<>();

	synchronized QueuedFault add(QueuedFault fault) {
		this.faults.addLast(fault);
		return fault;
	}

	/**
	 * Takes one use of the fault at the head.
	 * @return the fault, or {@code null} to answer normally
	 */
	synchronized @Nullable QueuedFault next() {
		QueuedFault head = this.faults.peekFirst();
		if (head == null) {
			return null;
		}
		if (head.uses != ALWAYS && --head.uses == 0) {
			this.faults.removeFirst();
		}
		return head.copy();
	}

	/**
	 * Changes a queued fault under the queue's lock, so that a request never sees it half changed.
	 * @param change the change
	 */
	synchronized void update(Runnable change) {
		change.run();
	}

	/**
	 * How many requests the queued faults will answer.
	 * @return the count, or {@link Integer#MAX_VALUE} when one is used always
	 */
	synchronized int pending() {
		long total = 0;
		for (QueuedFault fault : this.faults) {
			if (fault.uses == ALWAYS) {
				return Integer.MAX_VALUE;
			}
			total += fault.uses;
		}
		return (int) Math.min(total, Integer.MAX_VALUE);
	}

	synchronized void clear() {
		this.faults.clear();
	}

	/**
	 * One queued fault. Mutable until it is used (guarded by the queue's lock); {@link FaultQueue#next()}
	 * hands out copies.
	 */
	static final class QueuedFault {

		final Kind kind;

		int uses = 1;

		int status;

		@Nullable Duration retryAfter;

		@Nullable String contentType;

		@Nullable String body;

		Duration delay = Duration.ZERO;

		QueuedFault(Kind kind) {
			this.kind = kind;
		}

		/**
		 * An HTTP error status with Google's error body.
		 * @param status an HTTP status from 400 to 599
		 * @return the fault
		 * @throws IllegalArgumentException for another status
		 */
		static QueuedFault status(int status) {
			if (status < 400 || status > 599) {
				throw new IllegalArgumentException("A fault must be an HTTP status from 400 to 599: " + status);
			}
			QueuedFault fault = new QueuedFault(Kind.STATUS);
			fault.status = status;
			return fault;
		}

		/**
		 * A normal answer after a delay.
		 * @param delay how long to wait before answering
		 * @return the fault
		 * @throws IllegalArgumentException for a negative delay
		 */
		static QueuedFault delay(Duration delay) {
			Objects.requireNonNull(delay, "delay must not be null");
			if (delay.isNegative()) {
				throw new IllegalArgumentException("A delay must not be negative: " + delay);
			}
			QueuedFault fault = new QueuedFault(Kind.DELAY);
			fault.delay = delay;
			return fault;
		}

		QueuedFault copy() {
			QueuedFault copy = new QueuedFault(this.kind);
			copy.uses = this.uses;
			copy.status = this.status;
			copy.retryAfter = this.retryAfter;
			copy.contentType = this.contentType;
			copy.body = this.body;
			copy.delay = this.delay;
			return copy;
		}

	}

}
