package dev.modelarmor.client.admin;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonIgnore;
import org.jspecify.annotations.Nullable;

/**
 * A Model Armor template: the filters that screen prompts and model responses.
 *
 * <p>Every component is {@code null} when not given; {@code null} components are left out of the
 * JSON, and an update changes only the non-{@code null} top-level fields.
 *
 * <p>A template read from Model Armor holds its JSON as read ({@link #asRead()}), so that what this
 * client does not model (a newer field, an enum value that reads as {@code UNRECOGNIZED}) travels back
 * unchanged when the template, or a copy of it made with the {@code with...} methods, is sent back.
 * Change a read template with those methods: they keep {@code asRead}, where the canonical constructor
 * called with the read values would not. {@code equals} and {@code hashCode} compare the modelled
 * components only, so a template read back equals one built with the same values.
 *
 * @param name the resource name, {@code projects/{project}/locations/{location}/templates/{id}}, or
 * {@code null} when not given
 * @param createTime when the template was created (output only), or {@code null}
 * @param updateTime when the template was last updated (output only), or {@code null}
 * @param labels the labels, an unmodifiable copy in the given order, or {@code null} when not given
 * @param filterConfig the filters, or {@code null} when not given (required when creating)
 * @param templateMetadata the metadata, or {@code null} when not given
 * @param asRead the template as Model Armor sent it, or {@code null} for a template built in Java
 */
public record Template(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
		@Nullable Map<String, String> labels, @Nullable FilterConfig filterConfig,
		@Nullable TemplateMetadata templateMetadata, @JsonIgnore @Nullable AsRead asRead) {

	/**
	 * Creates a template.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param labels the labels, copied, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param templateMetadata the metadata, or {@code null}
	 * @param asRead the template as Model Armor sent it, or {@code null}
	 */
	public Template {
		labels = NullableCopies.map(labels);
	}

	/**
	 * Creates a template built in Java, with nothing read from Model Armor.
	 * @param name the resource name, or {@code null}
	 * @param createTime the creation time, or {@code null}
	 * @param updateTime the last update time, or {@code null}
	 * @param labels the labels, copied, or {@code null}
	 * @param filterConfig the filters, or {@code null}
	 * @param templateMetadata the metadata, or {@code null}
	 */
	public Template(@Nullable String name, @Nullable Instant createTime, @Nullable Instant updateTime,
			@Nullable Map<String, String> labels, @Nullable FilterConfig filterConfig,
			@Nullable TemplateMetadata templateMetadata) {
		this(name, createTime, updateTime, labels, filterConfig, templateMetadata, null);
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
	 * This template with other labels; what was read stays.
	 * @param labels the labels, or {@code null} to leave them out
	 * @return the template
	 */
	public Template withLabels(@Nullable Map<String, String> labels) {
		return new Template(this.name, this.createTime, this.updateTime, labels, this.filterConfig,
				this.templateMetadata, this.asRead);
	}

	/**
	 * This template with other filters; what was read stays, also in the filters that did not change.
	 * @param filterConfig the filters, or {@code null} to leave them out
	 * @return the template
	 */
	public Template withFilterConfig(@Nullable FilterConfig filterConfig) {
		return new Template(this.name, this.createTime, this.updateTime, this.labels, filterConfig,
				this.templateMetadata, this.asRead);
	}

	/**
	 * This template with other metadata; what was read stays.
	 * @param templateMetadata the metadata, or {@code null} to leave it out
	 * @return the template
	 */
	public Template withTemplateMetadata(@Nullable TemplateMetadata templateMetadata) {
		return new Template(this.name, this.createTime, this.updateTime, this.labels, this.filterConfig,
				templateMetadata, this.asRead);
	}

	/**
	 * This template without the fields that the service sets: name, create time and update time.
	 * That is what a create sends; the id travels in the URL. What was read stays, less those fields.
	 * @return the template without output fields
	 */
	public Template withoutOutputFields() {
		return new Template(null, null, null, this.labels, this.filterConfig, this.templateMetadata, this.asRead);
	}

	/**
	 * Compares the modelled components, not {@link #asRead()}.
	 * @param other another object
	 * @return whether it is a template with equal modelled components
	 */
	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof Template that && Objects.equals(this.name, that.name)
				&& Objects.equals(this.createTime, that.createTime) && Objects.equals(this.updateTime, that.updateTime)
				&& Objects.equals(this.labels, that.labels) && Objects.equals(this.filterConfig, that.filterConfig)
				&& Objects.equals(this.templateMetadata, that.templateMetadata));
	}

	/**
	 * A hash of the modelled components, not of {@link #asRead()}.
	 * @return the hash
	 */
	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.createTime, this.updateTime, this.labels, this.filterConfig,
				this.templateMetadata);
	}

}
