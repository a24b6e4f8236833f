package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.ai.document.ModelArmorDocumentOptions;
import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

/**
 * Maps {@code modelarmor.spring-ai.*} onto the Spring AI integration's settings types, so that an invalid value
 * fails startup with a {@link ModelArmorConfigurationException} naming the property. Called only where the
 * Spring AI integration is configured: only an application that has it loads the types it maps to.
 */
final class SpringAiSettingsMapper {

	private static final String ADVISOR = "modelarmor.spring-ai.advisor.";

	private static final String DOCUMENTS_TEMPLATE = "modelarmor.spring-ai.documents.template";

	private static final String TOOLS_TEMPLATE = "modelarmor.spring-ai.tools.template";

	private SpringAiSettingsMapper() {
	}

	/**
	 * The templates the Spring AI properties name, validated: blank is refused, unset or empty falls back to
	 * {@code modelarmor.template-id}.
	 * @param properties the bound properties
	 * @return the templates by property
	 * @throws ModelArmorConfigurationException naming a property whose template is blank
	 */
	static NamedTemplates templates(ModelArmorSpringAiProperties properties) {
		Map<String, @Nullable String> templates = new LinkedHashMap<>();
		templates.put(ADVISOR + "template", advisorTemplate(properties));
		templates.put(DOCUMENTS_TEMPLATE, documentsTemplate(properties));
		templates.put(TOOLS_TEMPLATE, toolsTemplate(properties));
		Map<String, String> named = new LinkedHashMap<>();
		templates.forEach((property, template) -> {
			if (template != null) {
				named.put(property, template);
			}
		});
		return new NamedTemplates(named);
	}

	/**
	 * The advisor's template.
	 * @param properties the bound properties
	 * @return the template, or {@code null} for {@code modelarmor.template-id}
	 * @throws ModelArmorConfigurationException when it is blank
	 */
	static @Nullable String advisorTemplate(ModelArmorSpringAiProperties properties) {
		return template(ADVISOR + "template", properties.getAdvisor().getTemplate());
	}

	/**
	 * The template retrieved documents are screened with.
	 * @param properties the bound properties
	 * @return the template, or {@code null} for {@code modelarmor.template-id}
	 * @throws ModelArmorConfigurationException when it is blank
	 */
	static @Nullable String documentsTemplate(ModelArmorSpringAiProperties properties) {
		return template(DOCUMENTS_TEMPLATE, properties.getDocuments().getTemplate());
	}

	/**
	 * The template tool calls and results are screened with.
	 * @param properties the bound properties
	 * @return the template, or {@code null} for {@code modelarmor.template-id}
	 * @throws ModelArmorConfigurationException when it is blank
	 */
	static @Nullable String toolsTemplate(ModelArmorSpringAiProperties properties) {
		return template(TOOLS_TEMPLATE, properties.getTools().getTemplate());
	}

	private static @Nullable String template(String property, @Nullable String template) {
		PropertyValues.requireNotBlankTemplate(property, template);
		return (template != null && !template.isEmpty()) ? template : null;
	}

	/**
	 * How the advisor acts.
	 * @param advisor {@code modelarmor.spring-ai.advisor.*}
	 * @return the advisor's options
	 * @throws ModelArmorConfigurationException naming the property that is invalid
	 */
	static ModelArmorAdvisorOptions advisor(ModelArmorSpringAiProperties.Advisor advisor) {
		if (advisor.isParallelPromptScreening() && advisor.getOnMatch() == MatchAction.DEIDENTIFY) {
			throw PropertyValues.invalid(ADVISOR + "parallel-prompt-screening", true,
					"cannot be used with " + ADVISOR + "on-match=deidentify: the model would read "
							+ "the prompt before it is de-identified; set one of them otherwise");
		}
		try {
			return new ModelArmorAdvisorOptions(advisor.getOnMatch(), advisor.getOnBlock(), advisor.getRefusal(),
					advisor.getOrder(), advisor.getStreamMode(), PropertyValues.bytes(advisor.getStreamSegment()),
					advisor.isParallelPromptScreening());
		}
		catch (IllegalArgumentException ex) {
			throw PropertyValues.invalid(ADVISOR + "stream-segment", advisor.getStreamSegment(), ex.getMessage());
		}
	}

	/**
	 * How retrieved documents are screened.
	 * @param documents {@code modelarmor.spring-ai.documents.*}
	 * @return the document screener's options
	 */
	static ModelArmorDocumentOptions documents(ModelArmorSpringAiProperties.Documents documents) {
		return new ModelArmorDocumentOptions(documents.getOnMatch(), documents.getOnBlock());
	}

	/**
	 * How tool calls and results are screened.
	 * @param tools {@code modelarmor.spring-ai.tools.*}
	 * @return the tool screener's options
	 */
	static ModelArmorToolOptions tools(ModelArmorSpringAiProperties.Tools tools) {
		return new ModelArmorToolOptions(tools.getOnMatch(), tools.getOnBlock(), tools.getRefusal());
	}

}
