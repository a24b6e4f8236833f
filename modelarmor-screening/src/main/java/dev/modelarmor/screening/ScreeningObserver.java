package dev.modelarmor.screening;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Watches the screenings of {@code @ModelArmorGuarded} calls, for metrics. The starter provides a
 * Micrometer implementation when Micrometer is present.
 */
@FunctionalInterface
public interface ScreeningObserver {

	/** Records nothing. */
	ScreeningObserver NONE = (phase, template, result, matchedFilters) -> {
	};

	/**
	 * One side of a guarded call was screened, or could not be.
	 * @param phase which side
	 * @param template the template it was screened with (or would have been, when it could not be), or
	 * {@code null} for the client's own ({@code modelarmor.template-id})
	 * @param result what became of it
	 * @param matchedFilters the filters that matched, empty when none did or screening failed
	 */
	void screened(Phase phase, @Nullable String template, ScreeningResult result, Set<String> matchedFilters);

}
