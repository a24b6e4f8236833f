package dev.modelarmor.observation.internal;

import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictCacheObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Counts the lookups of the {@link VerdictCache} in the counter {@value #LOOKUPS}, with the tags
 * {@code operation} ({@code sanitize_user_prompt} or {@code sanitize_model_response}, as in
 * {@code modelarmor.client.requests}) and {@code result}: {@code hit} (no Model Armor call), {@code miss},
 * {@code invalid} (a stored value that was not a usable verdict for its key), {@code forged} (a value whose
 * signature does not verify), {@code error} (the cache failed or timed out) or {@code skipped} (not asked,
 * after failures in a row); and the gauge {@value #SKIPPED}. Every result but {@code hit} screens the text.
 * Without a {@link MeterRegistry} it records nothing.
 */
public class MicrometerVerdictCacheObserver implements VerdictCacheObserver {

	/** The counter of lookups. */
	public static final String LOOKUPS = "modelarmor.cache.lookups";

	/** The gauge that is 1 while the cache is skipped after failures in a row, 0 while it is used. */
	public static final String SKIPPED = "modelarmor.cache.skipped";

	private final @Nullable MeterRegistry meters;

	private final AtomicInteger skipped = new AtomicInteger();

	/**
	 * Creates an observer.
	 * @param meters where the counter goes, or {@code null} to record nothing
	 */
	public MicrometerVerdictCacheObserver(@Nullable MeterRegistry meters) {
		this.meters = meters;
		if (meters != null) {
			Gauge.builder(SKIPPED, this.skipped, AtomicInteger::get)
				.description("1 while the verdict cache is skipped after failing, 0 while it is used")
				.register(meters);
		}
	}

	@Override
	public void skipping(boolean skipped) {
		this.skipped.set(skipped ? 1 : 0);
	}

	@Override
	public void lookedUp(String operation, Lookup lookup) {
		MeterRegistry registry = this.meters;
		if (registry == null) {
			return;
		}
		Counter.builder(LOOKUPS)
			.description("Lookups of Model Armor verdicts in the verdict cache")
			.tag("operation", operation)
			.tag("result", lookup.tag())
			.register(registry)
			.increment();
	}

}
