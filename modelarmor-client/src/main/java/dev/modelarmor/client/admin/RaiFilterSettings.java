package dev.modelarmor.client.admin;

import java.util.List;

import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.RaiFilterType;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the responsible AI filters of a template or a floor setting.
 *
 * @param raiFilters the enabled categories with their confidence levels, an unmodifiable copy, or
 * {@code null} when not given
 */
public record RaiFilterSettings(@Nullable List<RaiFilter> raiFilters) {

	/**
	 * Creates the settings.
	 * @param raiFilters the enabled categories, copied, or {@code null}
	 */
	public RaiFilterSettings {
		raiFilters = NullableCopies.list(raiFilters);
	}

	/**
	 * One enabled responsible AI category.
	 *
	 * @param filterType the category, or {@code null} when not given
	 * @param confidenceLevel the lowest confidence at which a detection is a match, or {@code null}
	 * when not given (the service then picks a default for the category)
	 */
	public record RaiFilter(@Nullable RaiFilterType filterType, @Nullable DetectionConfidenceLevel confidenceLevel) {

	}

}
