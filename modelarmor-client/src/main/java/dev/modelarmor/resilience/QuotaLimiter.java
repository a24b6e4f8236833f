package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.RetryRuntime;
import org.jspecify.annotations.Nullable;

/**
 * Hands out the quota's permits, one per HTTP attempt. A permit that is due later is waited for with the
 * runtime's sleeper, but only when the wait fits in the call's deadline (as long as Google's strategy would
 * have gone on retrying a 429) and in {@link QuotaSettings#maxWait()} when the operator set one; otherwise it
 * is given back and the attempt is refused ({@link CallOutcome#QUOTA_EXHAUSTED}). Model Armor's quota is the
 * project's, whatever the location: one limiter serves every location of a client. The wait is known when the permit is reserved, so a caller
 * never waits in vain.
 */
public final class QuotaLimiter implements AutoCloseable {

	private final QuotaBucket bucket;

	private final QuotaSettings settings;

	private final RetryRuntime runtime;

	QuotaLimiter(QuotaBucket bucket, QuotaSettings settings, RetryRuntime runtime) {
		this.bucket = bucket;
		this.settings = settings;
		this.runtime = runtime;
	}

	/**
	 * A limiter kept in this process.
	 * @param settings the quota
	 * @param runtime the clock of the bucket and the sleeper of the waits
	 * @return the limiter
	 */
	public static QuotaLimiter local(QuotaSettings settings, RetryRuntime runtime) {
		return new QuotaLimiter(new LocalQuotaBucket(settings, runtime.clock()), settings, runtime);
	}

	/**
	 * A limiter whose permits are shared through Redis by every instance that names the same key.
	 * @param bucket the shared bucket; closed with the limiter
	 * @param settings the quota
	 * @param runtime the sleeper of the waits
	 * @return the limiter
	 */
	public static QuotaLimiter shared(RedisQuotaBucket bucket, QuotaSettings settings, RetryRuntime runtime) {
		return new QuotaLimiter(bucket, settings, runtime);
	}

	/**
	 * Takes a permit for one attempt.
	 * @param deadline the call's deadline, or {@code null} for no wait at all
	 * @return the permit, granted or refused, and the time waited
	 */
	Permit acquire(@Nullable RetryDeadline deadline) {
		Reserved reserved = reserve(deadline);
		if (reserved.decided() != null) {
			return reserved.decided();
		}
		try {
			// whole milliseconds, rounded up: never sent before the permit is due
			this.runtime.sleeper().sleep(reserved.waitMillis());
			return new Permit(null, reserved.waited());
		}
		catch (InterruptedException ex) {
			if (ex.getClass() == InterruptedException.class) {
				Thread.currentThread().interrupt();
			}
			return reserved.interrupted();
		}
	}

	/**
	 * Takes a permit for one attempt without holding the thread: a permit due later is waited for with the
	 * runtime's {@link dev.modelarmor.retry.RetryDelayer}, under the same rules as {@link #acquire}.
	 * @param deadline the call's deadline, or {@code null} for no wait at all
	 * @return the permit, granted or refused, once decided; cancelling it gives a permit waited for back
	 */
	CompletableFuture<Permit> acquireAsync(@Nullable RetryDeadline deadline) {
		Reserved reserved = reserve(deadline);
		if (reserved.decided() != null) {
			return CompletableFuture.completedFuture(reserved.decided());
		}
		CompletableFuture<Void> waited = this.runtime.delayer().delay(Duration.ofMillis(reserved.waitMillis()));
		CompletableFuture<Permit> permit = waited.handle((done, cut) -> (cut == null)
				? new Permit(null, reserved.waited()) : reserved.interrupted());
		permit.whenComplete((granted, failure) -> {
			if (permit.isCancelled()) {
				waited.cancel(false);
				reserved.reservation().refund();
			}
		});
		return permit;
	}

	/** Reserves a permit: granted or refused at once, or due after a wait that fits. */
	private Reserved reserve(@Nullable RetryDeadline deadline) {
		Duration maxWait = this.settings.maxWait();
		Duration allowed = (deadline == null) ? Duration.ZERO
				: (maxWait != null) ? min(maxWait, deadline.remaining()) : deadline.remaining();
		QuotaBucket.Reservation reservation = this.bucket.reserve();
		long wait = reservation.waitNanos();
		if (wait <= 0) {
			return new Reserved(reservation, 0, new Permit(null, Duration.ZERO));
		}
		if (wait > allowed.toNanos()) {
			reservation.refund();
			return new Reserved(reservation, wait, new Permit(CallOutcome.QUOTA_EXHAUSTED, Duration.ZERO));
		}
		return new Reserved(reservation, wait, null);
	}

	/**
	 * A reservation: decided at once, or to be waited for {@code waitNanos}.
	 */
	private record Reserved(QuotaBucket.Reservation reservation, long waitNanos, @Nullable Permit decided) {

		long waitMillis() {
			return (this.waitNanos + 999_999) / 1_000_000;
		}

		Duration waited() {
			return Duration.ofNanos(this.waitNanos);
		}

		Permit interrupted() {
			this.reservation.refund();
			return new Permit(CallOutcome.INTERRUPTED, Duration.ZERO);
		}

	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	/** Whether permits come from Redis right now, for tests. */
	boolean isShared() {
		return (this.bucket instanceof RedisQuotaBucket redis) && redis.isShared();
	}

	@Override
	public void close() {
		this.bucket.close();
	}

	/**
	 * A permit, or why there is none.
	 *
	 * @param refusal {@code null} when granted, else {@link CallOutcome#QUOTA_EXHAUSTED} or
	 * {@link CallOutcome#INTERRUPTED}
	 * @param waited the time waited for it
	 */
	record Permit(@Nullable CallOutcome refusal, Duration waited) {
	}

}
