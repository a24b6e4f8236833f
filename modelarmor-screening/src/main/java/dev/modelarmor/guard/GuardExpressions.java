package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

/**
 * Parses and evaluates the SpEL of {@link ModelArmorGuarded#prompt()} and
 * {@link ModelArmorGuarded#response()}: the arguments are {@code #p0}, {@code #a0} and {@code #name},
 * the return value {@code #result}. A value is text when it is a {@link CharSequence} or an
 * {@link Optional} of one.
 */
final class GuardExpressions {

	static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	/** {@code p0}, {@code a1}: the arguments by index, as {@link MethodBasedEvaluationContext} names them. */
	private static final Pattern INDEXED_ARGUMENT = Pattern.compile("[pa](\\d+)");

	private GuardExpressions() {
	}

	/**
	 * Parses an expression and checks that every variable it reads is one the guard sets.
	 * @param expression the SpEL
	 * @param method the guarded method
	 * @param attribute {@code prompt} or {@code response}
	 * @param result the declared type of {@code #result}, or {@code null} when it is not set
	 * @return the parsed expression
	 * @throws dev.modelarmor.client.ModelArmorConfigurationException when the expression is not valid SpEL,
	 * reads a variable that is not set, or a property that its declared type does not have
	 */
	static Expression parse(String expression, Method method, String attribute, @Nullable ResolvableType result) {
		boolean withResult = result != null;
		SpelExpression parsed;
		try {
			parsed = PARSER.parseRaw(expression);
		}
		catch (ParseException ex) {
			throw GuardedMethod.invalid(method, attribute + " = \"" + expression + "\" is not valid SpEL ("
					+ ex.getSimpleMessage() + ")", "Correct the expression", ex);
		}
		requireKnownVariables(parsed.getAST(), method, attribute, expression, withResult);
		requireKnownProperties(parsed.getAST(), parsed.getAST(), method, attribute, expression, result);
		return parsed;
	}

	/**
	 * A property that the argument's (or the result's) type does not have fails every call with a
	 * {@code SpelEvaluationException}: where the declared type tells, that is found now. Only a chain of
	 * properties from a variable is followed ({@code #request.message.body}); it stops at a method call, an
	 * index or a type that may hold more than it declares ({@link GuardedTypes#known}).
	 */
	private static void requireKnownProperties(SpelNode node, SpelNode whole, Method method, String attribute,
			String expression, @Nullable ResolvableType result) {
		if (node instanceof CompoundExpression && node.getChild(0) instanceof VariableReference variable) {
			String name = variable.toStringAST().substring(1);
			ResolvableType type = variableType(name, method, result);
			StringBuilder chain = new StringBuilder("#").append(name);
			for (int i = 1; i < node.getChildCount() && type != null
					&& node.getChild(i) instanceof PropertyOrFieldReference property; i++) {
				Class<?> owner = GuardedTypes.known(type);
				if (owner == null) {
					break;
				}
				type = GuardedTypes.property(owner, property.getName());
				if (type == null) {
					boolean last = node == whole && i == node.getChildCount() - 1;
					throw missingProperty(method, attribute, expression, chain.toString(), property.getName(), owner, last);
				}
				chain.append('.').append(property.getName());
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			requireKnownProperties(node.getChild(i), whole, method, attribute, expression, result);
		}
	}

	private static @Nullable ResolvableType variableType(String name, Method method, @Nullable ResolvableType result) {
		if (name.equals("result")) {
			return result;
		}
		Matcher indexed = INDEXED_ARGUMENT.matcher(name);
		int index = -1;
		if (indexed.matches()) {
			index = Integer.parseInt(indexed.group(1));
		}
		else {
			@Nullable String @Nullable [] names = PARAMETER_NAMES.getParameterNames(method);
			index = (names != null) ? Arrays.asList(names).indexOf(name) : -1;
		}
		return (index >= 0 && index < method.getParameterCount()) ? ResolvableType.forMethodParameter(method, index)
				: null;
	}

	private static RuntimeException missingProperty(Method method, String attribute, String expression, String chain,
			String property, Class<?> owner, boolean last) {
		String type = ClassUtils.getShortName(owner);
		List<String> text = GuardedTypes.properties(owner, true);
		List<String> all = GuardedTypes.properties(owner, false);
		String action;
		if (last && text.size() == 1) {
			action = "Set " + attribute + " = \"" + chain + "." + text.get(0) + "\"";
		}
		else if (last && !text.isEmpty()) {
			action = "Set " + attribute + " to the one that holds the text, " + String.join(" or ",
					text.stream().map((candidate) -> "\"" + chain + "." + candidate + "\"").toList());
		}
		else if (!all.isEmpty()) {
			action = "Read one of the properties that " + type + " has: " + String.join(", ", all);
		}
		else {
			action = "Read another value: " + type + " has no property that SpEL can read (a getter, a record component "
					+ "or a public field)";
		}
		return GuardedMethod.invalid(method, attribute + " = \"" + expression + "\" reads " + chain + "." + property
				+ ", but " + type + " has no property '" + property + "', so every call would fail", action, null);
	}

	/**
	 * A variable that the guard does not set reads as {@code null}, and a {@code null} prompt or answer is
	 * not screened: a misspelt {@code #qestion} would leave every call unscreened without a word.
	 */
	private static void requireKnownVariables(SpelNode node, Method method, String attribute, String expression,
			boolean withResult) {
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			if (!isKnownVariable(name, method, withResult)) {
				throw GuardedMethod.invalid(method, attribute + " = \"" + expression + "\" reads #" + name
						+ ", which the guard does not set, so nothing would be screened",
						variablesToUse(method, withResult), null);
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			requireKnownVariables(node.getChild(i), method, attribute, expression, withResult);
		}
	}

	private static String variablesToUse(Method method, boolean withResult) {
		int count = method.getParameterCount();
		if (count == 0) {
			return withResult ? "Read #result: the method has no parameters"
					: "Set screenPrompt = false: the method has no parameters";
		}
		@Nullable String @Nullable [] names = PARAMETER_NAMES.getParameterNames(method);
		String parameters = (names != null) ? String.join(", ", names)
				: "their names are not known: compile with -parameters";
		return "Name a parameter (" + parameters + ") or use #p0 to #p" + (count - 1) + (withResult ? " or #result" : "");
	}

	private static boolean isKnownVariable(String name, Method method, boolean withResult) {
		if (name.equals("root")) {
			// the evaluation's root object, which the guard leaves null, whatever the parameters' names
			return false;
		}
		if (name.equals("this") || (withResult && name.equals("result"))) {
			return true;
		}
		Matcher indexed = INDEXED_ARGUMENT.matcher(name);
		if (indexed.matches()) {
			return indexed.group(1).length() < 10 && Integer.parseInt(indexed.group(1)) < method.getParameterCount();
		}
		@Nullable String @Nullable [] names = PARAMETER_NAMES.getParameterNames(method);
		return names != null && Arrays.asList(names).contains(name);
	}

	static @Nullable String evaluate(Expression expression, Method method, @Nullable Object[] arguments,
			@Nullable Object result, String attribute) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(null, method, arguments,
				PARAMETER_NAMES);
		context.setVariable("result", result);
		return text(expression.getValue(context), method, attribute);
	}

	static @Nullable String text(@Nullable Object value, Method method, String attribute) {
		Object unwrapped = (value instanceof Optional<?> optional) ? optional.orElse(null) : value;
		if (unwrapped == null || unwrapped instanceof CharSequence) {
			return (unwrapped != null) ? unwrapped.toString() : null;
		}
		throw new IllegalStateException("The " + attribute + " of @ModelArmorGuarded " + GuardedMethod.describe(method)
				+ " gave a " + unwrapped.getClass().getName() + ", not text");
	}

}
