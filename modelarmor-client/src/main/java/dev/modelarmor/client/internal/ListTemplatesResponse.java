package dev.modelarmor.client.internal;

import java.util.List;

import dev.modelarmor.client.admin.Template;
import org.jspecify.annotations.Nullable;

/**
 * One page of a {@code templates.list} answer.
 *
 * @param templates the templates of this page, an unmodifiable copy, or {@code null} when absent
 * @param nextPageToken the token of the next page, or {@code null} on the last page
 * @param unreachable the locations that could not be reached, an unmodifiable copy, or {@code null}
 * when absent
 */
public record ListTemplatesResponse(@Nullable List<Template> templates, @Nullable String nextPageToken,
		@Nullable List<String> unreachable) {

	public ListTemplatesResponse {
		templates = (templates != null) ? List.copyOf(templates) : null;
		unreachable = (unreachable != null) ? List.copyOf(unreachable) : null;
	}

}
