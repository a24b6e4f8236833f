package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.retry.InvalidSettingException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.unit.DataSize;

/**
 * What the settings mappers share: a refused value named by its property, blank names refused, and sizes
 * turned into bytes.
 */
final class PropertyValues {

	private PropertyValues() {
	}

	/**
	 * A value the starter refuses.
	 * @param property the property's name
	 * @param value the bound value
	 * @param reason why it is refused, e.g. {@code must be positive}
	 * @return the problem, named by the property
	 */
	static ModelArmorConfigurationException invalid(String property, @Nullable Object value,
			@Nullable String reason) {
		return new InvalidPropertyValue(property, value, reason);
	}

	/**
	 * A value a settings type refused, named by its property.
	 * @param group the prefix of the settings type's properties, e.g. {@code modelarmor.retry.}
	 * @param ex what the settings type refused
	 * @return the problem, named by the property
	 */
	static ModelArmorConfigurationException invalid(String group, InvalidSettingException ex) {
		return invalid(group + ex.setting(), ex.value(), ex.reason());
	}

	/**
	 * Refuses a blank value; an unset or empty one passes.
	 * @param property the property's name
	 * @param value its value
	 * @param action what to do instead, e.g. {@code remove it or name a template}
	 */
	static void requireNotBlank(String property, @Nullable String value, String action) {
		if (value != null && value.isBlank()) {
			throw invalid(property, value, "is blank; " + action);
		}
	}

	/**
	 * Refuses a blank template, or one whose id Model Armor would never accept: one that is unset or empty falls
	 * back to {@code modelarmor.template-id}.
	 * @param property the property's name
	 * @param template its value
	 */
	static void requireNotBlankTemplate(String property, @Nullable String template) {
		if (template != null && !template.isEmpty()) {
			requireNotBlank(property, template, "remove it to use modelarmor.template-id, or name a template");
			if (!TemplateReference.isReference(template)) {
				TemplateIds.requireValid(property, template);
				return;
			}
			TemplateReference reference;
			try {
				reference = TemplateReference.parse(template);
			}
			catch (IllegalArgumentException ex) {
				throw new ModelArmorConfigurationException(property, String.valueOf(ex.getMessage()),
						"Set " + property + " to a template id, or to locations/{location}/templates/{id}", ex);
			}
			TemplateIds.requireValid(property, reference.templateId());
		}
	}

	/**
	 * The bytes of a size, clamped to the range of an int so that an out-of-range size is refused as such.
	 * @param size the size
	 * @return its bytes
	 */
	static int bytes(DataSize size) {
		return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
	}

}
