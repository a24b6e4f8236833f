package dev.modelarmor.resilience;

import java.util.concurrent.CompletableFuture;

import dev.modelarmor.internal.Futures;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The starter's {@link AttemptGate}: the circuit breaker of the call's location first (an open breaker
 * refuses at once, without spending a permit), then the quota limiter (the project's, shared by every
 * location, as Model Armor's quota is); each admitted attempt's status goes back to that breaker and to the
 * observer. The breaker counts calls: each call's attempts go through one {@link #call}.
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

	/**
	 * The breaker counts the call once: it asks for a permission at the first attempt, lets retries through
	 * unless it has opened since, and hears each attempt's status and the call's end.
	 */
	@Override
	public CallAdmissions call(String operation, @Nullable String template, String location) {
		return new GatedCall(operation, template, location);
	}

	/** The attempts of one call, one after another. */
	private final class GatedCall implements CallAdmissions {

		private final String operation;

		private final @Nullable String template;

		private final String location;

		/** The breaker's permission, from the first admitted attempt on; {@code null} before or without a breaker. */
		private volatile ModelArmorCircuitBreaker.@Nullable Call permission;

		GatedCall(String operation, @Nullable String template, String location) {
			this.operation = operation;
			this.template = template;
			this.location = location;
		}

		@Override
		public Admission admit(@Nullable RetryDeadline deadline) {
			Admission refused = breakerRefusal();
			if (refused != null) {
				return refused;
			}
			QuotaLimiter quota = ResilienceGate.this.quota;
			return (quota != null) ? permitted(quota.acquire(deadline)) : admitted();
		}

		@Override
		public CompletableFuture<Admission> admitAsync(@Nullable RetryDeadline deadline) {
			Admission refused = breakerRefusal();
			if (refused != null) {
				return CompletableFuture.completedFuture(refused);
			}
			QuotaLimiter quota = ResilienceGate.this.quota;
			if (quota == null) {
				return CompletableFuture.completedFuture(admitted());
			}
			CompletableFuture<QuotaLimiter.Permit> permit = quota.acquireAsync(deadline);
			CompletableFuture<Admission> admission = permit.thenApply(this::permitted);
			Futures.cancelWith(admission, permit);
			return admission;
		}

		@Override
		public void ended() {
			ModelArmorCircuitBreaker.Call permission = this.permission;
			if (permission != null) {
				permission.ended();
			}
		}

		/** The breaker first: an open breaker refuses at once, without spending a quota permit. */
		private @Nullable Admission breakerRefusal() {
			ModelArmorCircuitBreaker breaker = ResilienceGate.this.breaker;
			if (breaker == null) {
				return null;
			}
			ModelArmorCircuitBreaker.Call permission = this.permission;
			if (permission == null) {
				permission = breaker.start(this.location);
				if (permission == null) {
					return refused(CallOutcome.CIRCUIT_OPEN);
				}
				this.permission = permission;
				return null;
			}
			return permission.mayRetry() ? null : refused(CallOutcome.CIRCUIT_OPEN);
		}

		/** After the breaker let the attempt through: the quota's answer decides. */
		private Admission permitted(QuotaLimiter.Permit permit) {
			CallOutcome refusal = permit.refusal();
			safely(() -> ResilienceGate.this.observer.quotaAsked(this.template, this.location, permit.waited(),
					refusal == null));
			return (refusal != null) ? refused(refusal) : admitted();
		}

		private Admission admitted() {
			ModelArmorCircuitBreaker.Call permission = this.permission;
			return new Admission() {

				@Override
				public void ended(String status) {
					if (permission != null) {
						permission.attemptEnded(status);
					}
					safely(() -> ResilienceGate.this.observer.attemptEnded(GatedCall.this.operation,
							GatedCall.this.template, GatedCall.this.location, status));
				}

			};
		}

		private Admission refused(CallOutcome outcome) {
			safely(() -> ResilienceGate.this.observer.attemptRefused(this.operation, this.template, this.location,
					outcome));
			return new Refusal(outcome);
		}

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
