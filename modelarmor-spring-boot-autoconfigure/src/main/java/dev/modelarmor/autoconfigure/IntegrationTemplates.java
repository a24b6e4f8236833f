package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The templates an integration's properties name (such as {@code modelarmor.spring-ai.advisor.template}), by
 * property, for the template check at startup. An integration's auto-configuration publishes one, so that the
 * core auto-configuration reads no integration's properties.
 *
 * @param byProperty the template each property names, by property; unset properties left out
 */
record IntegrationTemplates(Map<String, String> byProperty) {

	IntegrationTemplates {
		byProperty = Map.copyOf(byProperty);
	}

	/**
	 * Every published integration's templates, in the order of the beans.
	 * @param integrations the published templates
	 * @return the templates by property
	 */
	static Map<String, String> merged(ObjectProvider<IntegrationTemplates> integrations) {
		Map<String, String> merged = new LinkedHashMap<>();
		integrations.orderedStream().forEach((templates) -> merged.putAll(templates.byProperty()));
		return merged;
	}

}
