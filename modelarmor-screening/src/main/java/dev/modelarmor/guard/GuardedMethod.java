package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
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
			throw invalid(method, "has no CharSequence argument to screen as the prompt", promptHint(method), null);
		}
		ReturnShape shape = ReturnShape.of(method);
		ResponseSource response = annotation.screenResponse() ? ResponseSource.of(method, annotation.response(), shape)
				: null;
		if (annotation.screenResponse() && response == null) {
			throw invalid(method, "returns no CharSequence or Optional<CharSequence>, nor a Mono, Flux or "
					+ "CompletableFuture of CharSequence, to screen as the response", responseHint(method, shape), null);
		}
		String template = annotation.template().strip();
		Expression templateExpression = null;
		if (template.startsWith("#{") && template.endsWith("}")) {
			templateExpression = GuardExpressions.parse(template.substring(2, template.length() - 1), method,
					"template", null);
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

	/**
	 * What to set instead, from the parameters' declared types: the first text property found (a record
	 * component, a getter or a public field of a {@code CharSequence} type), or that there is none.
	 */
	private static String promptHint(Method method) {
		int count = method.getParameterCount();
		if (count == 0) {
			return "Set screenPrompt = false: the method has no parameters";
		}
		@Nullable String @Nullable [] names = GuardExpressions.PARAMETER_NAMES.getParameterNames(method);
		List<String> types = new ArrayList<>();
		List<String> candidates = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			ResolvableType type = ResolvableType.forMethodParameter(method, i);
			String parameter = (names != null) ? names[i] : "p" + i;
			for (String property : GuardedTypes.textProperties(type)) {
				candidates.add("\"#" + parameter + "." + property + "\"");
			}
			types.add(typeName(type));
		}
		if (candidates.size() == 1) {
			return "Set prompt = " + candidates.get(0) + " (SpEL over the arguments) or screenPrompt = false";
		}
		if (!candidates.isEmpty()) {
			return "Set prompt to the one that holds the prompt, " + String.join(" or ", candidates)
					+ " (SpEL over the arguments), or screenPrompt = false";
		}
		return "Set prompt to SpEL over the arguments that gives the prompt's text (no parameter's type, "
				+ String.join(", ", types) + ", has a CharSequence property to read) or screenPrompt = false";
	}

	/** What to set instead, from the declared type of the answer (of each element for a Mono, Flux or future). */
	private static String responseHint(Method method, ReturnShape shape) {
		ResolvableType answer = ResponseSource.answerType(method, shape);
		Class<?> resolved = answer.resolve();
		if (resolved == void.class || resolved == Void.class) {
			return "Set screenResponse = false: the method gives no answer";
		}
		List<String> properties = GuardedTypes.textProperties(answer);
		if (!properties.isEmpty()) {
			String result = switch (shape) {
				case VALUE -> "#result";
				case MONO -> "#result, the Mono's value";
				case FLUX -> "#result, each element of the Flux";
				case FUTURE -> "#result, the future's value";
				case FLOW -> "#result, each element of the Flow";
			};
			List<String> candidates = properties.stream().map((property) -> "\"#result." + property + "\"").toList();
			return (candidates.size() == 1)
					? "Set response = " + candidates.get(0) + " (SpEL over " + result + ") or screenResponse = false"
					: "Set response to the one that holds the answer, " + String.join(" or ", candidates) + " (SpEL over "
							+ result + "), or screenResponse = false";
		}
		if (GuardedTypes.known(answer) != null) {
			return "Set screenResponse = false: " + typeName(answer) + " has no CharSequence property to screen";
		}
		return "Set response to SpEL over #result that gives the answer's text (each element for a Mono, Flux or "
				+ "CompletableFuture) or screenResponse = false";
	}

	private static String typeName(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return (resolved != null) ? ClassUtils.getShortName(resolved) : type.toString();
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
