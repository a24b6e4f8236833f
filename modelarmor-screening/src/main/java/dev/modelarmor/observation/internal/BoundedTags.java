package dev.modelarmor.observation.internal;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Tag values whose number is bounded, whatever a server sends or a caller names: each unknown value
 * becomes {@value #OTHER}, so that no one can create meter series at will.
 */
final class BoundedTags {

	/** The value of every unknown name. */
	static final String OTHER = "other";

	/** The value when there is no template. */
	static final String NONE = "none";

	/** The filter names Model Armor documents (the keys of {@code filterResults}). */
	static final Set<String> KNOWN_FILTERS = Set.of("rai", "sdp", "pi_and_jailbreak", "malicious_uris", "csam",
			"virus_scan");

	/** More locations than Google has: past them, a new location's series is {@value #OTHER}. */
	static final int MAX_LOCATIONS = 64;

	private BoundedTags() {
	}

	/**
	 * The {@code location} tag of a location, the first {@link #MAX_LOCATIONS} seen being kept as they are.
	 * @param location the location a call went to
	 * @param seen the locations tagged so far, added to
	 * @return the location, or {@value #OTHER} once that many others were seen
	 */
	static String location(String location, Set<String> seen) {
		if (seen.contains(location)) {
			return location;
		}
		synchronized (seen) {
			if (seen.size() < MAX_LOCATIONS) {
				seen.add(location);
				return location;
			}
		}
		return OTHER;
	}

	/**
	 * The {@code filter} tag of a filter name.
	 * @param name a name as the server sent it
	 * @return the name when it is a known filter, else {@value #OTHER}
	 */
	static String filter(String name) {
		return KNOWN_FILTERS.contains(name) ? name : OTHER;
	}

	/**
	 * The {@code template} tag of a template id.
	 * @param template the id, or {@code null}
	 * @param configured the templates the application configures
	 * @return the id when configured, {@value #NONE} without one, else {@value #OTHER}
	 */
	static String template(@Nullable String template, Set<String> configured) {
		if (template == null) {
			return NONE;
		}
		return configured.contains(template) ? template : OTHER;
	}

}
