package dev.modelarmor.client;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.client.internal.PathIds;
import org.jspecify.annotations.Nullable;

/**
 * A Model Armor template and the location it lives in, which belong together: a call with this reference goes
 * to that location's endpoint and names that location in its path, and never to another location.
 * Written {@code locations/{location}/templates/{templateId}} ({@link #name()}), the form that
 * {@link #parse(String)} reads back and that the starter's {@code template} attributes accept.
 *
 * @param templateId the template id
 * @param location the template's location: a region such as {@code europe-west4}, or {@code us} / {@code eu}
 */
public record TemplateReference(String templateId, String location) {

	/** A location as it may stand in a regional host name: one DNS label. */
	private static final Pattern LOCATION = Pattern.compile("[a-z][a-z0-9-]{0,62}");

	private static final Pattern NAME = Pattern.compile("locations/([^/]+)/templates/([^/]+)");

	/**
	 * Checks the reference.
	 * @param templateId the template id
	 * @param location the location
	 * @throws IllegalArgumentException naming the argument, when the template id cannot stand in a path
	 * segment or the location is not a region name
	 */
	public TemplateReference {
		PathIds.require("templateId", templateId);
		if (location == null || !LOCATION.matcher(location).matches()) {
			throw new IllegalArgumentException(
					"location must be a region such as us-central1, or us or eu (lowercase letters, digits and hyphens)");
		}
	}

	/**
	 * A reference.
	 * @param templateId the template id
	 * @param location the template's location
	 * @return the reference
	 */
	public static TemplateReference of(String templateId, String location) {
		return new TemplateReference(templateId, location);
	}

	/**
	 * Reads {@code locations/{location}/templates/{templateId}}.
	 * @param name the reference's name
	 * @return the reference
	 * @throws IllegalArgumentException when the name has another form
	 */
	public static TemplateReference parse(String name) {
		Matcher matcher = NAME.matcher(name.strip());
		if (!matcher.matches()) {
			throw new IllegalArgumentException("A template reference is written locations/{location}/templates/{id}");
		}
		return new TemplateReference(matcher.group(2), matcher.group(1));
	}

	/**
	 * Whether a template attribute names a template with its location rather than a bare template id.
	 * @param template a template id or a reference's name
	 * @return whether it starts with {@code locations/}
	 */
	public static boolean isReference(@Nullable String template) {
		return template != null && template.startsWith("locations/");
	}

	/**
	 * The reference's name.
	 * @return {@code locations/{location}/templates/{templateId}}
	 */
	public String name() {
		return "locations/" + this.location + "/templates/" + this.templateId;
	}

	@Override
	public String toString() {
		return name();
	}

}
