package dev.modelarmor.autoconfigure;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerOptions;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

/**
 * Maps {@code modelarmor.spring-ai.mcp-server.*} onto {@link ModelArmorMcpServerOptions}, so that an invalid
 * value fails startup with a {@link ModelArmorConfigurationException} naming the property.
 */
final class SpringAiMcpServerSettingsMapper {

	private static final String PREFIX = "modelarmor.spring-ai.mcp-server.";

	private SpringAiMcpServerSettingsMapper() {
	}

	/**
	 * The template the MCP server's calls are screened with.
	 * @param properties the bound properties
	 * @return the template, or {@code null} for the resolver's (tenants, then {@code modelarmor.template-id})
	 * @throws ModelArmorConfigurationException when it is blank
	 */
	static @Nullable String template(ModelArmorSpringAiMcpServerProperties properties) {
		String template = properties.getTemplate();
		PropertyValues.requireNotBlankTemplate(PREFIX + "template", template);
		return (template != null && !template.isEmpty()) ? template : null;
	}

	/**
	 * The template by property, for the startup template check.
	 * @param properties the bound properties
	 * @return the templates named
	 */
	static NamedTemplates templates(ModelArmorSpringAiMcpServerProperties properties) {
		return NamedTemplates.of(PREFIX + "template", template(properties));
	}

	/**
	 * What is screened and how.
	 * @param properties the bound properties
	 * @return the options
	 * @throws ModelArmorConfigurationException naming an excluded name that is blank
	 */
	static ModelArmorMcpServerOptions options(ModelArmorSpringAiMcpServerProperties properties) {
		return new ModelArmorMcpServerOptions(properties.getOnMatch(),
				names(PREFIX + "excluded-tools", properties.getExcludedTools()),
				names(PREFIX + "excluded-prompts", properties.getExcludedPrompts()),
				names(PREFIX + "excluded-resources", properties.getExcludedResources()),
				properties.isScreenToolDefinitions());
	}

	private static Set<String> names(String property, List<String> names) {
		Set<String> checked = new LinkedHashSet<>();
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			if (name == null || name.isBlank()) {
				throw PropertyValues.invalid(property + "[" + i + "]", name,
						"is blank; name a tool, prompt or resource as the server declares it, or remove it");
			}
			checked.add(name);
		}
		return checked;
	}

}
