package dev.modelarmor.samples.standin;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

/**
 * HTTP error statuses that the stand-in answers, one per sanitize request and in order, before it
 * answers normally again: a burst of 503 or 429 that the starter retries. Filled at startup from
 * {@code stand-in.faults} and at run time by {@code POST /stand-in/faults}.
 */
public class FaultQueue {

	private final Queue<Integer> statuses = new ConcurrentLinkedQueue<>();

	FaultQueue(StandInProperties properties) {
		add(properties.faults());
	}

	/**
	 * Queues statuses after those already queued.
	 * @param faults HTTP statuses from 400 to 599
	 * @throws IllegalArgumentException for a status outside that range (nothing is queued then)
	 */
	public void add(List<Integer> faults) {
		for (Integer status : faults) {
			if (status == null || status < 400 || status > 599) {
				throw new IllegalArgumentException("A fault must be an HTTP status from 400 to 599: " + status);
			}
		}
		this.statuses.addAll(faults);
	}

	/**
	 * Takes the next fault.
	 * @return the status to answer with, or {@code null} to answer normally
	 */
	public @Nullable Integer next() {
		return this.statuses.poll();
	}

	/**
	 * How many faults are still queued.
	 * @return the count
	 */
	public int pending() {
		return this.statuses.size();
	}

	/**
	 * Drops every queued fault.
	 */
	public void clear() {
		this.statuses.clear();
	}

}
