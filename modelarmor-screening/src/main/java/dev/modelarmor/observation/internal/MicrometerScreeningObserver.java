package dev.modelarmor.observation.internal;

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
 * {@code rejected}); a name Model Armor does not document counts as {@code other};</li>
 * <li>{@code template}: the template the side was screened with, when it is one the application
 * configures ({@code modelarmor.template-id} and the Spring AI integrations' templates), else
 * {@code other}, so that callers naming templates cannot create series at will.</li>
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

	private final Set<String> templates;

	private final @Nullable String defaultTemplate;

	/**
	 * Creates an observer that tags every template {@code other}.
	 * @param meters where the counter goes, or {@code null} to record nothing
	 */
	public MicrometerScreeningObserver(@Nullable MeterRegistry meters) {
		this(meters, Set.of(), null);
	}

	/**
	 * Creates an observer.
	 * @param meters where the counter goes, or {@code null} to record nothing
	 * @param templates the configured templates, the only ids the {@code template} tag shows
	 * @param defaultTemplate the client's own template ({@code modelarmor.template-id}), which a screening
	 * that names none uses, or {@code null}
	 */
	public MicrometerScreeningObserver(@Nullable MeterRegistry meters, Set<String> templates,
			@Nullable String defaultTemplate) {
		this.meters = meters;
		this.templates = Set.copyOf(templates);
		this.defaultTemplate = defaultTemplate;
	}

	@Override
	public void screened(Phase phase, @Nullable String template, ScreeningResult result, Set<String> matchedFilters) {
		MeterRegistry registry = this.meters;
		if (registry == null) {
			return;
		}
		String phaseTag = phase.name().toLowerCase(Locale.ROOT);
		String templateTag = BoundedTags.template(
				(template == null || template.isBlank()) ? this.defaultTemplate : template, this.templates);
		if (matchedFilters.isEmpty()) {
			increment(registry, phaseTag, templateTag, result, NO_FILTER);
			return;
		}
		for (String filter : matchedFilters) {
			// bounded: a name the server invents counts as other, so a hostile server cannot grow the meter count
			increment(registry, phaseTag, templateTag, result, BoundedTags.filter(filter));
		}
	}

	private static void increment(MeterRegistry registry, String phase, String template, ScreeningResult result,
			String filter) {
		Counter.builder(SCREENINGS)
			.description("Screenings of guarded calls, once per matched filter")
			.tag("phase", phase)
			.tag("template", template)
			.tag("result", result.tag())
			.tag("filter", filter)
			.register(registry)
			.increment();
	}

}
