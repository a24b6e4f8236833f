package dev.modelarmor.samples.standin;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the requests that reached the stand-in, per method ({@code sanitizeUserPrompt},
 * {@code sanitizeModelResponse}), faults included: every retry attempt counts.
 */
public class StandInStats {

	private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

	/**
	 * Counts one request.
	 * @param method the API method
	 */
	public void record(String method) {
		this.requests.computeIfAbsent(method, (key) -> new AtomicInteger()).incrementAndGet();
	}

	/**
	 * The requests counted for a method.
	 * @param method the API method
	 * @return the count
	 */
	public int requests(String method) {
		AtomicInteger count = this.requests.get(method);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Every count, by method.
	 * @return a sorted copy
	 */
	public Map<String, Integer> snapshot() {
		Map<String, Integer> copy = new TreeMap<>();
		this.requests.forEach((method, count) -> copy.put(method, count.get()));
		return copy;
	}

	/**
	 * Forgets every count.
	 */
	public void reset() {
		this.requests.clear();
	}

}
