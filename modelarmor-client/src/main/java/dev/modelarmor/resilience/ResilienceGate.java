package dev.modelarmor.resilience;

import java.util.concurrent.CompletableFuture;

import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The starter's {@link AttemptGate}: the circuit breaker first (an open breaker refuses at once, without
 * spending a permit), then the quota limiter; each admitted attempt's status goes back to the breaker and
 * to the observer.
 */
public final class ResilienceGate implements AttemptGate {

	private static final Log logger = LogFactory.getLog(ResilienceGate.class);

	private final @Nullable ModelArmorCircuitBreaker breaker;

	private final @Nullable QuotaLimiter quota;

	private final ResilienceObserver observer;

	/**
	 * Creates a gate.
	 * @param breaker the circuit breaker, or {@code null} for none
	 * @param quota the quota limiter, or {@code null} for none
	 * @param observer told of every attempt
	 */
	public ResilienceGate(@Nullable ModelArmorCircuitBreaker breaker, @Nullable QuotaLimiter quota,
			ResilienceObserver observer) {
		this.breaker = breaker;
		this.quota = quota;
		this.observer = observer;
	}

	@Override
	public Admission admit(String operation, @Nullable String template, @Nullable RetryDeadline deadline) {
		ModelArmorCircuitBreaker breaker = this.breaker;
		if (breaker != null && !breaker.tryAcquire()) {
			return refused(operation, template, CallOutcome.CIRCUIT_OPEN);
		}
		QuotaLimiter quota = this.quota;
		return (quota != null) ? permitted(operation, template, quota.acquire(deadline)) : admitted(operation, template);
	}

	@Override
	public CompletableFuture<Admission> admitAsync(String operation, @Nullable String template,
			@Nullable RetryDeadline deadline) {
		ModelArmorCircuitBreaker breaker = this.breaker;
		if (breaker != null && !breaker.tryAcquire()) {
			return CompletableFuture.completedFuture(refused(operation, template, CallOutcome.CIRCUIT_OPEN));
		}
		QuotaLimiter quota = this.quota;
		if (quota == null) {
			return CompletableFuture.completedFuture(admitted(operation, template));
		}
		CompletableFuture<QuotaLimiter.Permit> permit = quota.acquireAsync(deadline);
		CompletableFuture<Admission> admission = permit.thenApply((granted) -> permitted(operation, template, granted));
		admission.whenComplete((admitted, failure) -> {
			if (admission.isCancelled()) {
				permit.cancel(false);
				if (breaker != null) {
					breaker.released();
				}
			}
		});
		return admission;
	}

	/** After the breaker let the attempt through: the quota's answer decides. */
	private Admission permitted(String operation, @Nullable String template, QuotaLimiter.Permit permit) {
		CallOutcome refusal = permit.refusal();
		safely(() -> this.observer.quotaAsked(template, permit.waited(), refusal == null));
		if (refusal != null) {
			if (this.breaker != null) {
				this.breaker.released();
			}
			return refused(operation, template, refusal);
		}
		return admitted(operation, template);
	}

	private Admission admitted(String operation, @Nullable String template) {
		ModelArmorCircuitBreaker breaker = this.breaker;
		long started = System.nanoTime();
		return new Admission() {

			@Override
			public void ended(String status) {
				if (breaker != null) {
					breaker.ended(status, System.nanoTime() - started);
				}
				safely(() -> ResilienceGate.this.observer.attemptEnded(operation, template, status));
			}

		};
	}

	private Admission refused(String operation, @Nullable String template, CallOutcome outcome) {
		safely(() -> this.observer.attemptRefused(operation, template, outcome));
		return new Refusal(outcome);
	}

	private static void safely(Runnable observerCall) {
		try {
			observerCall.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Model Armor resilience observer failed, the call goes on: failure=" + ex.getClass().getName());
		}
	}

	/**
	 * The breaker, for meters and health.
	 * @return the breaker, or {@code null} when there is none
	 */
	public @Nullable ModelArmorCircuitBreaker circuitBreaker() {
		return this.breaker;
	}

	/**
	 * Whether a limiter takes permits.
	 * @return {@code true} with a quota limiter
	 */
	public boolean limitsQuota() {
		return this.quota != null;
	}

}
