package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorConfigurationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link ModelArmorConfigurationException} at startup as a description naming the property
 * and the action to take, instead of a stack trace.
 */
class ModelArmorConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ModelArmorConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ModelArmorConfigurationException cause) {
		return new FailureAnalysis("Model Armor is not configured correctly: " + cause.getMessage(), cause.action(),
				cause);
	}

}
