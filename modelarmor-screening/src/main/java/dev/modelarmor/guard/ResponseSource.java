package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.expression.Expression;

/**
 * Where a guarded method's answer is: the return value (a {@link CharSequence} or an {@link Optional}
 * of one), or a SpEL expression over {@code #result}. For a method that answers later (a {@code Mono},
 * a {@code Flux} or a {@code CompletableFuture}), the answer is each element it gives, and {@code #result}
 * that element. The answer can be replaced by de-identified text only when it is the whole return value
 * (or element) and that accepts a {@code String}.
 *
 * @param expression the SpEL, or {@code null} when the answer is the return value itself
 * @param optional whether the return value is an {@code Optional}
 * @param replaceable whether the return value can take de-identified text
 */
record ResponseSource(@Nullable Expression expression, boolean optional, boolean replaceable) {

	/**
	 * The response source of a method.
	 * @param method the guarded method
	 * @param expression the {@code response} attribute, possibly empty
	 * @param shape what the method returns
	 * @return the source, or {@code null} when the method returns no text and has no expression
	 */
	static @Nullable ResponseSource of(Method method, String expression, ReturnShape shape) {
		if (!expression.isBlank() && !expression.strip().equals("#result")) {
			return new ResponseSource(GuardExpressions.parse(expression, method, "response", answerType(method, shape)),
					false, false);
		}
		if (shape != ReturnShape.VALUE) {
			// A suspending function's own return type is its Kotlin one (what Spring's Mono of it holds).
			ResolvableType returned = ResolvableType.forMethodParameter(new MethodParameter(method, -1));
			Class<?> element = (shape == ReturnShape.MONO && KotlinDetector.isSuspendingFunction(method))
					? returned.resolve() : returned.getGeneric(0).resolve();
			return (element != null && CharSequence.class.isAssignableFrom(element))
					? new ResponseSource(null, false, element.isAssignableFrom(String.class)) : null;
		}
		Class<?> returnType = method.getReturnType();
		if (CharSequence.class.isAssignableFrom(returnType)) {
			return new ResponseSource(null, false, returnType.isAssignableFrom(String.class));
		}
		if (returnType == Optional.class) {
			Class<?> content = ResolvableType.forMethodReturnType(method).getGeneric(0).resolve();
			if (content != null && CharSequence.class.isAssignableFrom(content)) {
				return new ResponseSource(null, true, content.isAssignableFrom(String.class));
			}
		}
		return null;
	}

	/**
	 * The declared type of {@code #result}: the return type, or the type of each element that a
	 * {@code Mono}, a {@code Flux} or a {@code CompletableFuture} gives.
	 * @param method the guarded method
	 * @param shape what it returns
	 * @return the type, unresolvable when the method does not say
	 */
	static ResolvableType answerType(Method method, ReturnShape shape) {
		ResolvableType returned = ResolvableType.forMethodReturnType(method);
		return (shape != ReturnShape.VALUE) ? returned.getGeneric(0) : returned;
	}

	@Nullable String read(Method method, @Nullable Object[] arguments, @Nullable Object result) {
		if (this.expression == null) {
			return GuardExpressions.text(result, method, "response");
		}
		return GuardExpressions.evaluate(this.expression, method, arguments, result, "response");
	}

	Object replace(String text) {
		return this.optional ? Optional.of(text) : text;
	}

}
