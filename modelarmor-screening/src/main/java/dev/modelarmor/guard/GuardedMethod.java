package dev.modelarmor.guard;

import java.lang.reflect.Method;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;
import org.springframework.util.ClassUtils;

/**
 * A {@link ModelArmorGuarded} method, resolved once: what to screen, where its text is, and what to do
 * on a match.
 *
 * @param name the method's short name for messages, e.g. {@code ChatService.chat(String)}
 * @param template the template id, empty for the default
 * @param prompt where the prompt is, or {@code null} when the method has none
 * @param response where the answer is, or {@code null} when it is not screened
 * @param screenPrompt whether the prompt is screened
 * @param onMatch what happens on a match
 * @param parallel whether the prompt is screened while the body runs (the method is free of side effects)
 * @param shape what the method returns: its answer at once, or later
 * @param templateExpression the SpEL of a template written {@code #{...}}, evaluated for each call; then
 * {@code template} is empty
 */
record GuardedMethod(String name, String template, @Nullable PromptSource prompt, @Nullable ResponseSource response,
		boolean screenPrompt, MatchAction onMatch, boolean parallel, ReturnShape shape,
		@Nullable Expression templateExpression) {

	GuardedMethod(String name, String template, @Nullable PromptSource prompt, @Nullable ResponseSource response,
			boolean screenPrompt, MatchAction onMatch, boolean parallel, ReturnShape shape) {
		this(name, template, prompt, response, screenPrompt, onMatch, parallel, shape, null);
	}

	/**
	 * Resolves a method, failing when it cannot be screened.
	 * @param method the method, as declared on the target class
	 * @param annotation its annotation, or its class's
	 * @param defaultTemplate the configured default template id, or {@code null}
	 * @return the resolved method
	 * @throws ModelArmorConfigurationException when no text can be found or no template is known
	 */
	static GuardedMethod resolve(Method method, ModelArmorGuarded annotation, @Nullable String defaultTemplate) {
		if (!annotation.screenPrompt() && !annotation.screenResponse()) {
			throw invalid(method, "screens neither the prompt nor the response",
					"Remove @ModelArmorGuarded or enable screenPrompt or screenResponse", null);
		}
		PromptSource prompt = PromptSource.of(method, annotation.prompt());
		if (annotation.screenPrompt() && prompt == null) {
			throw invalid(method, "has no CharSequence argument to screen as the prompt",
					"Set prompt = \"#request.text\" (SpEL over the arguments) or screenPrompt = false", null);
		}
		ReturnShape shape = ReturnShape.of(method);
		ResponseSource response = annotation.screenResponse() ? ResponseSource.of(method, annotation.response(), shape)
				: null;
		if (annotation.screenResponse() && response == null) {
			throw invalid(method, "returns no CharSequence or Optional<CharSequence>, nor a Mono, Flux or "
					+ "CompletableFuture of CharSequence, to screen as the response",
					"Set response = \"#result.text\" (SpEL over #result, each element for a Mono, Flux or "
							+ "CompletableFuture) or screenResponse = false", null);
		}
		String template = annotation.template().strip();
		Expression templateExpression = null;
		if (template.startsWith("#{") && template.endsWith("}")) {
			templateExpression = GuardExpressions.parse(template.substring(2, template.length() - 1), method,
					"template", false);
			template = "";
		}
		if (templateExpression == null && annotation.template().isBlank()
				&& (defaultTemplate == null || defaultTemplate.isBlank())) {
			throw invalid(method, "names no template and modelarmor.template-id is not set",
					"Set modelarmor.template-id or the annotation's template attribute", null);
		}
		if (annotation.sideEffectFree() && annotation.screenPrompt() && annotation.onMatch() == MatchAction.DEIDENTIFY) {
			throw invalid(method, "is sideEffectFree with onMatch = DEIDENTIFY: its body would run with the prompt "
					+ "before it is de-identified", "Remove sideEffectFree = true or choose another onMatch", null);
		}
		return new GuardedMethod(describe(method), template, prompt, response,
				annotation.screenPrompt(), annotation.onMatch(), annotation.sideEffectFree() && annotation.screenPrompt(),
				shape, templateExpression);
	}

	static String describe(Method method) {
		StringBuilder name = new StringBuilder(ClassUtils.getShortName(method.getDeclaringClass()))
			.append('.').append(method.getName()).append('(');
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length; i++) {
			name.append((i > 0) ? ", " : "").append(types[i].getSimpleName());
		}
		return name.append(')').toString();
	}

	static InvalidGuardedMethod invalid(Method method, String problem, String action, @Nullable Throwable cause) {
		return new InvalidGuardedMethod(method, problem, action, cause);
	}

	/**
	 * A guarded method that cannot be screened. Kept apart so that when the annotation is its class's, the
	 * failure can say so: the method may be one the class inherits, which its author never meant to guard.
	 */
	static final class InvalidGuardedMethod extends ModelArmorConfigurationException {

		private final Method method;

		private final String problem;

		InvalidGuardedMethod(Method method, String problem, String action, @Nullable Throwable cause) {
			super("@ModelArmorGuarded on " + describe(method), problem, action);
			this.method = method;
			this.problem = problem;
			if (cause != null) {
				initCause(cause);
			}
		}

		/**
		 * The same failure, for a method that a class-level annotation covers.
		 * @param annotatedClass the class whose annotation covers the method
		 * @return the failure naming the class and the method
		 */
		ModelArmorConfigurationException coveredBy(Class<?> annotatedClass) {
			ModelArmorConfigurationException covered = new ModelArmorConfigurationException(
					"@ModelArmorGuarded on class " + ClassUtils.getShortName(annotatedClass)
							+ ", which covers its public method " + describe(this.method),
					this.problem, action() + ", or put @ModelArmorGuarded on the methods to screen instead of on the class");
			Throwable cause = getCause();
			if (cause != null) {
				covered.initCause(cause);
			}
			return covered;
		}

	}

}
