package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link ModelArmorGuarded} methods of a class and resolves each once: the annotation on the
 * method (or an interface or superclass method it implements) wins over the one on the class, which
 * covers public methods only; the methods of {@link Object} are never guarded.
 */
final class GuardedMethods {

	private final Map<MethodClassKey, Optional<GuardedMethod>> cache = new ConcurrentHashMap<>();

	private final Supplier<@Nullable String> defaultTemplate;

	/**
	 * Creates a resolver.
	 * @param defaultTemplate the configured default template id, asked when a method is first resolved
	 */
	GuardedMethods(Supplier<@Nullable String> defaultTemplate) {
		this.defaultTemplate = defaultTemplate;
	}

	/**
	 * The guarded method that a call goes to.
	 * @param method the method called, possibly on an interface
	 * @param targetClass the class of the object called
	 * @return the resolved method, or {@code null} when it is not guarded
	 */
	@Nullable GuardedMethod find(Method method, Class<?> targetClass) {
		return this.cache.computeIfAbsent(new MethodClassKey(method, targetClass), (key) -> resolve(method, targetClass))
			.orElse(null);
	}

	/**
	 * Resolves every guarded method of a class now, so that one that cannot be screened fails startup.
	 * @param targetClass the class
	 */
	void validate(Class<?> targetClass) {
		ReflectionUtils.doWithMethods(targetClass, (method) -> {
			if (!Modifier.isPublic(method.getModifiers()) || Modifier.isFinal(method.getModifiers())) {
				requireProxyable(method);
			}
			find(method, targetClass);
		}, (method) -> !method.isBridge() && !method.isSynthetic()
				&& (Modifier.isPublic(method.getModifiers()) || method.isAnnotationPresent(ModelArmorGuarded.class)));
	}

	/** A proxy cannot intercept a private, static or final method: guarding it would silently do nothing. */
	private static void requireProxyable(Method method) {
		int modifiers = method.getModifiers();
		if (method.isAnnotationPresent(ModelArmorGuarded.class)
				&& (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers))) {
			throw GuardedMethod.invalid(method, "is private, static or final, so no proxy can screen its calls",
					"Make the method public and not final, or move @ModelArmorGuarded to a method that is", null);
		}
	}

	private Optional<GuardedMethod> resolve(Method method, Class<?> targetClass) {
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		if (ReflectionUtils.isObjectMethod(specific) || Modifier.isStatic(specific.getModifiers())) {
			return Optional.empty();
		}
		ModelArmorGuarded annotation = AnnotatedElementUtils.findMergedAnnotation(specific, ModelArmorGuarded.class);
		if (annotation == null && Modifier.isPublic(specific.getModifiers())) {
			// a class-level annotation covers public methods only, the ones validate() checks at startup
			annotation = AnnotatedElementUtils.findMergedAnnotation(targetClass, ModelArmorGuarded.class);
		}
		return Optional.ofNullable(annotation)
			.map((found) -> GuardedMethod.resolve(specific, found, this.defaultTemplate.get()));
	}

}
