package dev.modelarmor.observation;

import dev.modelarmor.screening.VerdictCache;
import dev.modelarmor.screening.VerdictCacheObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Counts the lookups of the {@link VerdictCache} in the counter {@value #LOOKUPS}, with the tags
 * {@code operation} ({@code sanitize_user_prompt} or {@code sanitize_model_response}, as in
 * {@code modelarmor.client.requests}) and {@code result}: {@code hit} (no Model Armor call), {@code miss},
 * {@code invalid} (a stored value that was not a usable verdict for its key) or {@code error} (the cache
 * failed). Every result but {@code hit} screens the text. Without a {@link MeterRegistry} it records nothing.
 */
public class MicrometerVerdictCacheObserver implements VerdictCacheObserver {

	/** The counter of lookups. */
	public static final String LOOKUPS = "modelarmor.cache.lookups";

	private final @Nullable MeterRegistry meters;

	/**
	 * Creates an observer.
	 * @param meters where the counter goes, or {@code null} to record nothing
	 */
	public MicrometerVerdictCacheObserver(@Nullable MeterRegistry meters) {
		this.meters = meters;
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
