package dev.modelarmor.screening;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How many log lines of one outcome are written in full each second: the first {@code linesPerSecond} of a
 * second are, the rest are counted, and the first line of a later second is preceded by one summary line with
 * the count left out. A refusal storm then writes a bounded number of lines a second whatever the call rate,
 * and no line is lost without a trace. Seconds are counted on a monotonic clock. Thread-safe.
 */
final class LogLineRate {

	/** Outcomes are names from a fixed vocabulary; beyond this many, lines are written without a bound. */
	private static final int MAX_OUTCOMES = 256;

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	private final int linesPerSecond;

	private final LongSupplier nanoTime;

	private final Map<String, Second> seconds = new ConcurrentHashMap<>();

	/**
	 * Creates the rate.
	 * @param linesPerSecond the lines of each outcome written in full each second, at least 1
	 * @param nanoTime a monotonic clock, {@code System::nanoTime}
	 */
	LogLineRate(int linesPerSecond, LongSupplier nanoTime) {
		if (linesPerSecond < 1) {
			throw new IllegalArgumentException("linesPerSecond must be at least 1, was " + linesPerSecond);
		}
		this.linesPerSecond = linesPerSecond;
		this.nanoTime = nanoTime;
	}

	/**
	 * The lines of each outcome written in full each second.
	 * @return the number
	 */
	int linesPerSecond() {
		return this.linesPerSecond;
	}

	/**
	 * Whether a line of an outcome is written now, and how many lines of that outcome the last second that left
	 * some out did not write, to be summarized first.
	 * @param outcome the outcome, a name from a fixed vocabulary
	 * @return the admission
	 */
	Admission admit(String outcome) {
		Second second = this.seconds.get(outcome);
		if (second == null) {
			if (this.seconds.size() >= MAX_OUTCOMES) {
				return new Admission(true, 0);
			}
			second = this.seconds.computeIfAbsent(outcome, (ignored) -> new Second());
		}
		return second.admit(Math.floorDiv(this.nanoTime.getAsLong(), NANOS_PER_SECOND), this.linesPerSecond);
	}

	/**
	 * Whether to write a line, and the count of lines of its outcome left out before it.
	 *
	 * @param write whether this line is written
	 * @param leftOut how many lines of the outcome the last second that left some out did not write, to be
	 * summarized in one line before this one; 0 when there is nothing to summarize
	 */
	record Admission(boolean write, long leftOut) {
	}

	/** The lines of one outcome in the current second. */
	private static final class Second {

		private long index = Long.MIN_VALUE;

		private int written;

		private long leftOut;

		synchronized Admission admit(long now, int limit) {
			long summarized = 0;
			if (now != this.index) {
				summarized = this.leftOut;
				this.index = now;
				this.written = 0;
				this.leftOut = 0;
			}
			if (this.written < limit) {
				this.written++;
				return new Admission(true, summarized);
			}
			this.leftOut++;
			return new Admission(false, summarized);
		}

	}

}
