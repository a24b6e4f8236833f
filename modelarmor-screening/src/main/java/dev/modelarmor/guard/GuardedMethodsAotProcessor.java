package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Reflection hints for the {@link ModelArmorGuarded @ModelArmorGuarded} methods of an application's beans,
 * found at build time: the guard reads each method's parameter names and annotation, and its SpEL
 * ({@code #request.message}, {@code #result.text()}) calls the public methods of the arguments and of the
 * return value. Only SpEL that stays within those types works in a native image; a value reached further
 * down needs a hint of the application's own. Registered in {@code META-INF/spring/aot.factories}.
 */
final class GuardedMethodsAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Set<Method> guarded = guardedMethods(ClassUtils.getUserClass(registeredBean.getBeanClass()));
		if (guarded.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> register(generationContext.getRuntimeHints().reflection(), guarded);
	}

	/**
	 * The methods the guard screens: annotated themselves (on the class or an interface it implements), or
	 * public and in a class annotated, as {@link GuardedMethods} resolves them.
	 */
	static Set<Method> guardedMethods(Class<?> type) {
		boolean classLevel = AnnotatedElementUtils.hasAnnotation(type, ModelArmorGuarded.class);
		Set<Method> guarded = new LinkedHashSet<>();
		ReflectionUtils.doWithMethods(type, guarded::add,
				(method) -> !method.isBridge() && !method.isSynthetic() && !ReflectionUtils.isObjectMethod(method)
						&& !Modifier.isStatic(method.getModifiers())
						&& (AnnotatedElementUtils.hasAnnotation(method, ModelArmorGuarded.class)
								|| (classLevel && Modifier.isPublic(method.getModifiers()))));
		return guarded;
	}

	static void register(ReflectionHints reflection, Set<Method> guarded) {
		for (Method method : guarded) {
			// a type hint lets the guard introspect the method: its parameter names and annotation
			reflection.registerType(method.getDeclaringClass());
			for (int i = 0; i < method.getParameterCount(); i++) {
				registerForSpel(reflection, ResolvableType.forMethodParameter(method, i));
			}
			registerForSpel(reflection, ResolvableType.forMethodReturnType(method));
		}
	}

	/** The type and its type arguments: {@code #result} of an {@code Optional<Answer>} reads an {@code Answer}. */
	private static void registerForSpel(ReflectionHints reflection, ResolvableType type) {
		Class<?> resolved = type.resolve();
		if (resolved != null && !resolved.isPrimitive() && resolved != Object.class) {
			reflection.registerType(resolved, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		for (ResolvableType generic : type.getGenerics()) {
			registerForSpel(reflection, generic);
		}
	}

}
