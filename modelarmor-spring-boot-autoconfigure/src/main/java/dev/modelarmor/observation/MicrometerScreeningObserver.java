package dev.modelarmor.observation;

import java.util.Locale;
import java.util.Set;

import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningObserver;
import dev.modelarmor.screening.ScreeningResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Counts the screenings of {@code @ModelArmorGuarded} calls in the
 * counter {@value #SCREENINGS}, with the tags:
 * <ul>
 * <li>{@code phase}: {@code prompt}, {@code response}, {@code document}, {@code tool_call},
 * {@code tool_result} or {@code tool_definition};</li>
 * <li>{@code result}: a {@link ScreeningResult#tag()}: {@code allowed}, {@code blocked},
 * {@code deidentified}, {@code logged}, {@code failed_open}, {@code failed_closed} or {@code rejected}
 * (Model Armor refused the text itself, blocked in every mode);</li>
 * <li>{@code filter}: a matched filter, such as {@code sdp}, {@code rai} or {@code pi_and_jailbreak}, or
 * {@code none} when no filter matched ({@code allowed}, {@code failed_open}, {@code failed_closed},
 * {@code rejected}); a name Model Armor does not document counts as {@code other}.</li>
 * </ul>
 * A screening in which several filters matched increments the counter once per filter, so the sum over
 * {@code filter} counts matches, not screenings; count screenings of one result by one filter, or of a
 * result without matches by {@code filter=none}.
 *
 * <p>Without a {@link MeterRegistry} it records nothing.
 */
public class MicrometerScreeningObserver implements ScreeningObserver {

	/** The counter of screenings. */
	public static final String SCREENINGS = "modelarmor.guard.screenings";

	/** The {@code filter} tag of a screening in which no filter matched. */
	public static final String NO_FILTER = "none";

	private final @Nullable MeterRegistry meters;

	/**
	 * Creates an observer.
	 * @param meters where the counter goes, or {@code null} to record nothing
	 */
	public MicrometerScreeningObserver(@Nullable MeterRegistry meters) {
		this.meters = meters;
	}

	@Override
	public void screened(Phase phase, ScreeningResult result, Set<String> matchedFilters) {
		MeterRegistry registry = this.meters;
		if (registry == null) {
			return;
		}
		String phaseTag = phase.name().toLowerCase(Locale.ROOT);
		if (matchedFilters.isEmpty()) {
			increment(registry, phaseTag, result, NO_FILTER);
			return;
		}
		for (String filter : matchedFilters) {
			// bounded: a name the server invents counts as other (issue 26)
			increment(registry, phaseTag, result, BoundedTags.filter(filter));
		}
	}

	private static void increment(MeterRegistry registry, String phase, ScreeningResult result, String filter) {
		Counter.builder(SCREENINGS)
			.description("Screenings of guarded calls, once per matched filter")
			.tag("phase", phase)
			.tag("result", result.tag())
			.tag("filter", filter)
			.register(registry)
			.increment();
	}

}
