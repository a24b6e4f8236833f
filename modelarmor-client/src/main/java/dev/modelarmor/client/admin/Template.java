package dev.modelarmor.client.admin;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A Model Armor template: the filters that screen prompts and model responses.
 *
 * <p>Every component is {@code null} when not given; {@code null} components are left out of the
 * JSON, and an update changes only the non-{@code null} top-level fields.
 *
 * @param name the resource name, {@code projects/{project}/locations/{location}/templates/{id}}, or
 * {@code null} when not given
 * @param createTime when the template was created (output only), or {@code null}
 * @param updateTime when the template was last updated (output only), or {@code null}
 * @param labels the labels, an unmodifiable copy in the given order, or {@code null} when not given
 * @param filterConfig the filters, or {@code null} when not given (required when creating)
 * @param templateMetadata the metadata, or {@code null} when not given
 */
public record Template(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
		@Nullable Map<String, String> labels, @Nullable FilterConfig filterConfig,
		@Nullable TemplateMetadata templateMetadata) {

	/**
	 * Creates a template.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param labels the labels, copied, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param templateMetadata the metadata, or {@code null}
	 */
	public Template {
		labels = NullableCopies.map(labels);
	}

	/**
	 * Creates a template with filters only, e.g. to create it.
	 * @param filterConfig the filters
	 * @return the template
	 */
	public static Template of(FilterConfig filterConfig) {
		Objects.requireNonNull(filterConfig, "filterConfig must not be null");
		return new Template(null, null, null, null, filterConfig, null);
	}

	/**
	 * The template's id: the last segment of its name.
	 * @return the id, or {@code null} when the name is {@code null}
	 */
	public @Nullable String id() {
		return (this.name != null) ? this.name.substring(this.name.lastIndexOf('/') + 1) : null;
	}

	/**
	 * This template without the fields that the service sets: name, create time and update time.
	 * That is what a create sends; the id travels in the URL.
	 * @return the template without output fields
	 */
	public Template withoutOutputFields() {
		return new Template(null, null, null, this.labels, this.filterConfig, this.templateMetadata);
	}

}
