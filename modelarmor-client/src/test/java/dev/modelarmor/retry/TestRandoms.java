package dev.modelarmor.retry;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * Random sources with known behaviour for retry tests.
 */
final class TestRandoms {

	private TestRandoms() {
	}

	/** Always draws the lowest value of a range: a jitter of zero. */
	static RandomGenerator lowest() {
		return new Extreme(false);
	}

	/** Always draws the highest value of a range: the full jitter. */
	static RandomGenerator highest() {
		return new Extreme(true);
	}

	/** Fails the test if asked for anything. */
	static RandomGenerator unused() {
		return () -> {
			throw new AssertionError("the random source must not be used");
		};
	}

	/** Counts the requests made to a delegate; internal draws of the delegate are not counted. */
	static final class Counting implements RandomGenerator {

		private final RandomGenerator delegate;

		private final AtomicInteger requests = new AtomicInteger();

		Counting(RandomGenerator delegate) {
			this.delegate = delegate;
		}

		int requests() {
			return this.requests.get();
		}

		@Override
		public long nextLong() {
			this.requests.incrementAndGet();
			return this.delegate.nextLong();
		}

		@Override
		public long nextLong(long bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextLong(bound);
		}

		@Override
		public long nextLong(long origin, long bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextLong(origin, bound);
		}

		@Override
		public int nextInt() {
			this.requests.incrementAndGet();
			return this.delegate.nextInt();
		}

		@Override
		public int nextInt(int bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextInt(bound);
		}

		@Override
		public int nextInt(int origin, int bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextInt(origin, bound);
		}

		@Override
		public double nextDouble() {
			this.requests.incrementAndGet();
			return this.delegate.nextDouble();
		}

		@Override
		public double nextDouble(double bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextDouble(bound);
		}

		@Override
		public double nextDouble(double origin, double bound) {
			this.requests.incrementAndGet();
			return this.delegate.nextDouble(origin, bound);
		}

	}

	private static final class Extreme implements RandomGenerator {

		private final boolean highest;

		Extreme(boolean highest) {
			this.highest = highest;
		}

		@Override
		public long nextLong() {
			return this.highest ? Long.MAX_VALUE : Long.MIN_VALUE;
		}

		@Override
		public long nextLong(long bound) {
			return this.highest ? bound - 1 : 0;
		}

		@Override
		public long nextLong(long origin, long bound) {
			return this.highest ? bound - 1 : origin;
		}

		@Override
		public int nextInt(int bound) {
			return this.highest ? bound - 1 : 0;
		}

		@Override
		public int nextInt(int origin, int bound) {
			return this.highest ? bound - 1 : origin;
		}

		@Override
		public double nextDouble() {
			return this.highest ? Math.nextDown(1.0) : 0.0;
		}

	}

}
