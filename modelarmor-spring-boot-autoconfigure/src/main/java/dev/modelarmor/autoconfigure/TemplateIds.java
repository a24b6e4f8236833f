package dev.modelarmor.autoconfigure;

import java.util.regex.Pattern;

import dev.modelarmor.client.ModelArmorConfigurationException;

/**
 * Checks a template id a property names before it goes into the path of any call: the ids Model Armor creates are
 * letters, digits, hyphens and underscores, so anything else (a {@code /}, a {@code .} or {@code ..}, a
 * percent-encoded path, a space) is a mistake, refused at startup rather than as a 404 or another path at the
 * first call.
 */
final class TemplateIds {

	private static final Pattern TEMPLATE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]{0,62}");

	/** How much of a refused id the message quotes. */
	private static final int QUOTED = 64;

	private TemplateIds() {
	}

	/**
	 * Refuses a template id Model Armor would never accept.
	 * @param property the property that names it, e.g. {@code modelarmor.template-id}
	 * @param templateId its value
	 * @throws ModelArmorConfigurationException naming the property, when the id is not one Model Armor accepts
	 */
	static void requireValid(String property, String templateId) {
		if (!TEMPLATE_ID.matcher(templateId).matches()) {
			String quoted = (templateId.length() <= QUOTED) ? templateId
					: templateId.substring(0, QUOTED) + "... (" + templateId.length() + " characters)";
			throw new ModelArmorConfigurationException(property,
					"is not a template id Model Armor accepts (" + quoted + "): letters, digits, "
							+ "hyphens and underscores, at most 63, not starting with a hyphen",
					"Set " + property + " to the id of the template as Model Armor shows it");
		}
	}

}
