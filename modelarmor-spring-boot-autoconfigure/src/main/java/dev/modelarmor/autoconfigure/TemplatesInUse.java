package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.TemplateReference;
import org.jspecify.annotations.Nullable;

/**
 * The templates the application's properties name, each once with the first property that names it: the
 * client's own ({@code modelarmor.template-id}) first, then those of every area that screens with a template of
 * its own, as each publishes them ({@link NamedTemplates}): the tenants, the Spring AI advisor, documents, tools,
 * moderation and MCP server, LangChain4j. The one list that the start-up template check reads, that the
 * meters' {@code template} tag is bounded by (any other template is {@code other}) and that health reads.
 */
final class TemplatesInUse {

	private final @Nullable String defaultTemplate;

	private final Map<String, String> namedBy;

	private final Set<String> tagValues;

	/**
	 * The templates in use.
	 * @param defaultTemplate the client's own template, or {@code null}
	 * @param named the templates each area names, in the order of the areas
	 */
	TemplatesInUse(@Nullable String defaultTemplate, List<NamedTemplates> named) {
		this.defaultTemplate = defaultTemplate;
		Map<String, String> namedBy = new LinkedHashMap<>();
		put(namedBy, defaultTemplate, ModelArmorAuthorization.TEMPLATE_ID_PROPERTY);
		named.forEach((templates) -> templates.byProperty().forEach((property, id) -> put(namedBy, id, property)));
		this.namedBy = java.util.Collections.unmodifiableMap(namedBy);
		Set<String> tagValues = new LinkedHashSet<>();
		namedBy.keySet().forEach((template) -> {
			tagValues.add(template);
			// a screening names a reference with its location, the call made with it only the id
			if (TemplateReference.isReference(template)) {
				tagValues.add(TemplateReference.parse(template).templateId());
			}
		});
		this.tagValues = Set.copyOf(tagValues);
	}

	/**
	 * The client's own template, which a call that names none uses.
	 * @return the id of {@code modelarmor.template-id}, or {@code null}
	 */
	@Nullable String defaultTemplate() {
		return this.defaultTemplate;
	}

	/**
	 * Where each template is named.
	 * @return the first property naming each template, by template, the client's own first
	 */
	Map<String, String> namedBy() {
		return this.namedBy;
	}

	/**
	 * The values a meter's {@code template} tag may show besides {@code none} and {@code other}, so that the
	 * number of series stays bounded whatever callers name.
	 * @return every template in use, a reference also by its id
	 */
	Set<String> tagValues() {
		return this.tagValues;
	}

	private static void put(Map<String, String> named, @Nullable String id, String where) {
		if (id != null && !id.isBlank()) {
			named.putIfAbsent(id.strip(), where);
		}
	}

}
