package dev.modelarmor.screening;

import java.util.Set;

/**
 * Watches the screenings of {@code @ModelArmorGuarded} calls, for metrics. The starter provides a
 * Micrometer implementation when Micrometer is present.
 */
@FunctionalInterface
public interface ScreeningObserver {

	/** Records nothing. */
	ScreeningObserver NONE = (phase, result, matchedFilters) -> {
	};

	/**
	 * One side of a guarded call was screened, or could not be.
	 * @param phase which side
	 * @param result what became of it
	 * @param matchedFilters the filters that matched, empty when none did or screening failed
	 */
	void screened(Phase phase, ScreeningResult result, Set<String> matchedFilters);

}
