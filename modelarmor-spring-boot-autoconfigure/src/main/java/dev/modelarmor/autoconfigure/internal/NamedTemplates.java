package dev.modelarmor.autoconfigure.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The templates that one area's properties name (such as {@code modelarmor.spring-ai.advisor.template} or
 * {@code modelarmor.langchain4j.template}), each by the property that names it. Every auto-configuration that
 * screens with a template of its own publishes one as a bean, so that the templates in use are known in one
 * place: the start-up template check reads each of them, the meters tag calls with them, and no core
 * auto-configuration reads an integration's properties.
 *
 * @param byProperty the template each property names, by property, in the order of the properties; a template
 * is an id ({@code strict}) or a reference with its location ({@code locations/europe-west4/templates/strict})
 */
public record NamedTemplates(Map<String, String> byProperty) {

	/** No template. */
	public static final NamedTemplates NONE = new NamedTemplates(Map.of());

	/**
	 * Keeps the templates in their order.
	 * @param byProperty the templates by property
	 */
	public NamedTemplates {
		byProperty = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byProperty));
	}

	/**
	 * The template one property names.
	 * @param property the property
	 * @param template the template it names, or {@code null} when it names none (unset or empty)
	 * @return the named template, or {@link #NONE}
	 */
	public static NamedTemplates of(String property, @Nullable String template) {
		return (template != null && !template.isBlank()) ? new NamedTemplates(Map.of(property, template.strip()))
				: NONE;
	}

}
