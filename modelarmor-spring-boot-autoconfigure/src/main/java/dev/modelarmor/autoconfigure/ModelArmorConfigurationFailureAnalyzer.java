package dev.modelarmor.autoconfigure;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.modelarmor.client.ModelArmorConfigurationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link ModelArmorConfigurationException} at startup, instead of a stack trace: the description
 * says what is wrong with which setting, the action what to do about it (never the description again).
 * When several settings are missing at once, each is one line of both.
 */
class ModelArmorConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ModelArmorConfigurationException> {

	private static final String HEADLINE = "Model Armor is not configured correctly:";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ModelArmorConfigurationException cause) {
		if (cause instanceof ModelArmorConfigurationProblems several) {
			List<ModelArmorConfigurationException> problems = several.problems();
			return new FailureAnalysis(
					HEADLINE + lines(problems, (problem) -> problem.property() + ": " + problem.problem()),
					"Do each of these:" + lines(problems, ModelArmorConfigurationException::action), cause);
		}
		return new FailureAnalysis(HEADLINE + " " + cause.property() + ": " + cause.problem(), cause.action(), cause);
	}

	private static String lines(List<ModelArmorConfigurationException> problems,
			Function<ModelArmorConfigurationException, String> line) {
		return problems.stream().map((problem) -> "\n  - " + line.apply(problem)).collect(Collectors.joining());
	}

}
