package dev.modelarmor.test.sample;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;

import org.springframework.stereotype.Component;

/**
 * Injects the client by its interface, {@link ModelArmorOperations}.
 */
@Component
public class OperationsUser {

	private final ModelArmorOperations modelArmor;

	OperationsUser(ModelArmorOperations modelArmor) {
		this.modelArmor = modelArmor;
	}

	/**
	 * Screens a model response.
	 * @param response the response
	 * @return the result
	 */
	public SanitizationResult screen(String response) {
		return this.modelArmor.sanitizeModelResponse(response);
	}

}
