package dev.modelarmor.autoconfigure;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.modelarmor.client.ModelArmorConfigurationException;

/**
 * Several settings that the client cannot start without, all missing or invalid at once: thrown as one
 * failure so that the startup report lists them all, instead of one per restart.
 */
final class ModelArmorConfigurationProblems extends ModelArmorConfigurationException {

	private final List<ModelArmorConfigurationException> problems;

	private ModelArmorConfigurationProblems(List<ModelArmorConfigurationException> problems) {
		super(join(problems, ModelArmorConfigurationException::property, ", "),
				problems.size() + " settings need a change: "
						+ join(problems, (problem) -> problem.property() + ": " + problem.problem(), "; "),
				join(problems, ModelArmorConfigurationException::action, "; "));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Throws the problems found, if any: a single one as it is, several as one failure.
	 * @param problems the problems, in the order to report them
	 * @throws ModelArmorConfigurationException when there is at least one problem
	 */
	static void throwIfAny(List<ModelArmorConfigurationException> problems) {
		if (problems.size() == 1) {
			throw problems.get(0);
		}
		if (!problems.isEmpty()) {
			throw new ModelArmorConfigurationProblems(problems);
		}
	}

	/**
	 * Each problem, in the order reported.
	 * @return the problems, at least two
	 */
	List<ModelArmorConfigurationException> problems() {
		return this.problems;
	}

	private static String join(List<ModelArmorConfigurationException> problems,
			Function<ModelArmorConfigurationException, String> part, String separator) {
		return problems.stream().map(part).collect(Collectors.joining(separator));
	}

}
