package dev.modelarmor.client;

/**
 * The starter cannot work as configured: a property is missing or invalid, or a
 * {@code @ModelArmorGuarded} method cannot be screened. Spring Boot reports it at startup with what to
 * change and the action to take.
 */
public class ModelArmorConfigurationException extends IllegalStateException {

	private final String property;

	private final String problem;

	private final String action;

	/**
	 * Creates an exception.
	 * @param property what to change: a configuration property, e.g. {@code modelarmor.project-id}, or an
	 * annotated method, e.g. {@code @ModelArmorGuarded on ChatService.chat(String)}
	 * @param problem what is wrong
	 * @param action what to change
	 */
	public ModelArmorConfigurationException(String property, String problem, String action) {
		super(property + ": " + problem + (problem.endsWith("?") || problem.endsWith(".") ? " " : ". ") + action);
		this.property = property;
		this.problem = problem;
		this.action = action;
	}

	/**
	 * Creates an exception with the underlying failure.
	 * @param property the configuration property to change
	 * @param problem what is wrong
	 * @param action what to change
	 * @param cause the underlying failure
	 */
	public ModelArmorConfigurationException(String property, String problem, String action, Throwable cause) {
		this(property, problem, action);
		initCause(cause);
	}

	/**
	 * What to change: a configuration property or an annotated method.
	 * @return the property name or the method
	 */
	public String property() {
		return this.property;
	}

	/**
	 * What is wrong, without the property's name or the action.
	 * @return the problem
	 */
	public String problem() {
		return this.problem;
	}

	/**
	 * What to change so that the application starts.
	 * @return the action
	 */
	public String action() {
		return this.action;
	}

}
