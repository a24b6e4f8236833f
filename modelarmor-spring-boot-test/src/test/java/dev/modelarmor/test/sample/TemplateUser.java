package dev.modelarmor.test.sample;

import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;

import org.springframework.stereotype.Component;

/**
 * Injects the client as the README's "Use" teaches: as {@link ModelArmorTemplate}.
 */
@Component
public class TemplateUser {

	private final ModelArmorTemplate modelArmor;

	TemplateUser(ModelArmorTemplate modelArmor) {
		this.modelArmor = modelArmor;
	}

	/**
	 * Screens a prompt.
	 * @param prompt the prompt
	 * @return the result
	 */
	public SanitizationResult screen(String prompt) {
		return this.modelArmor.sanitizeUserPrompt(prompt);
	}

}
