package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Parses and evaluates the SpEL of {@link ModelArmorGuarded#prompt()} and
 * {@link ModelArmorGuarded#response()}: the arguments are {@code #p0}, {@code #a0} and {@code #name},
 * the return value {@code #result}. A value is text when it is a {@link CharSequence} or an
 * {@link Optional} of one.
 */
final class GuardExpressions {

	static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private static final ExpressionParser PARSER = new SpelExpressionParser();

	private GuardExpressions() {
	}

	static Expression parse(String expression, Method method, String attribute) {
		try {
			return PARSER.parseExpression(expression);
		}
		catch (ParseException ex) {
			throw GuardedMethod.invalid(method, attribute + " = \"" + expression + "\" is not valid SpEL ("
					+ ex.getSimpleMessage() + ")", "Correct the expression", ex);
		}
	}

	static @Nullable String evaluate(Expression expression, Method method, Object[] arguments,
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
