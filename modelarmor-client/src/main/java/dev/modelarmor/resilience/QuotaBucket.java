package dev.modelarmor.resilience;

/**
 * Where the limiter's permits come from: a token bucket in this process or one shared through Redis.
 */
interface QuotaBucket extends AutoCloseable {

	/**
	 * Reserves one permit, however far ahead: the bucket may go below zero, so that reservations are served
	 * in order and none is handed out before its refill.
	 * @return the reservation, with the time until the permit is due
	 */
	Reservation reserve();

	@Override
	default void close() {
	}

	/**
	 * One reserved permit.
	 */
	interface Reservation {

		/**
		 * How long until the permit is due.
		 * @return nanoseconds, zero when it is due now; {@link Long#MAX_VALUE} when it never will be
		 */
		long waitNanos();

		/** Gives the permit back, when the caller will not wait for it; best effort. */
		void refund();

	}

}
