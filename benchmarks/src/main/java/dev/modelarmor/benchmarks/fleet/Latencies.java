package dev.modelarmor.benchmarks.fleet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Call times, in nanoseconds, sorted: percentiles by nearest rank, printed in milliseconds. */
final class Latencies {

	private final List<Long> sorted;

	Latencies(Collection<Long> nanos) {
		this.sorted = new ArrayList<>(nanos);
		Collections.sort(this.sorted);
	}

	int count() {
		return this.sorted.size();
	}

	long percentile(int percent) {
		if (this.sorted.isEmpty()) {
			return 0;
		}
		int rank = (int) Math.ceil(percent / 100.0 * this.sorted.size());
		return this.sorted.get(Math.max(0, Math.min(this.sorted.size(), rank) - 1));
	}

	long max() {
		return this.sorted.isEmpty() ? 0 : this.sorted.get(this.sorted.size() - 1);
	}

	/** Whole milliseconds, for times of seconds. */
	static String millis(long nanos) {
		return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
	}

	/** Hundredths of a millisecond, for times well under one. */
	static String fineMillis(long nanos) {
		return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
	}

}
