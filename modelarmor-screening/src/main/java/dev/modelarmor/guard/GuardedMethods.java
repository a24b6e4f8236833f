package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link ModelArmorGuarded} methods of a class and resolves each once: the annotation on the
 * method (or an interface or superclass method it implements) wins over the one on the class, which
 * covers its public instance methods, inherited ones included; the methods of {@link Object} are never
 * guarded. A method that is guarded but cannot be screened, or that no proxy can reach, fails startup.
 */
final class GuardedMethods {

	private final Map<MethodClassKey, Optional<GuardedMethod>> cache = new ConcurrentHashMap<>();

	private final Supplier<@Nullable String> defaultTemplate;

	private final Map<String, String> templates = new ConcurrentHashMap<>();

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
	 * @return each guarded method that cannot be screened, once, in the order found; empty when none
	 */
	List<ModelArmorConfigurationException> validate(Class<?> targetClass) {
		Map<String, ModelArmorConfigurationException> problems = new LinkedHashMap<>();
		ReflectionUtils.doWithMethods(targetClass, (method) -> {
			try {
				requireProxyable(method, targetClass);
			}
			catch (ModelArmorConfigurationException ex) {
				problems.putIfAbsent(ex.getMessage(), ex);
			}
		}, (method) -> !method.isBridge() && !method.isSynthetic() && (Modifier.isPublic(method.getModifiers())
				|| method.isAnnotationPresent(ModelArmorGuarded.class)));
		return List.copyOf(problems.values());
	}

	/**
	 * The templates that validated annotations name, each with the first method that names it.
	 * @return {@code ClassName#method} by template id
	 */
	Map<String, String> templates() {
		return Map.copyOf(this.templates);
	}

	/**
	 * A proxy cannot intercept a private, static or final method: guarding it would silently do nothing, so
	 * one that is guarded, by its own annotation or by its class's, fails. A class-level annotation does not
	 * cover static methods, which are never called on the bean.
	 */
	private void requireProxyable(Method method, Class<?> targetClass) {
		int modifiers = method.getModifiers();
		boolean unreachable = Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers);
		if (unreachable && method.isAnnotationPresent(ModelArmorGuarded.class)) {
			throw unproxyable(method);
		}
		GuardedMethod guarded = unreachable ? null : find(method, targetClass);
		if (guarded != null && Modifier.isFinal(modifiers)) {
			throw unproxyable(method);
		}
		if (guarded != null && !guarded.template().isEmpty()) {
			this.templates.putIfAbsent(guarded.template(), ClassUtils.getShortName(targetClass) + "#" + method.getName());
		}
	}

	private static ModelArmorConfigurationException unproxyable(Method method) {
		return GuardedMethod.invalid(method, "is private, static or final, so no proxy can screen its calls",
				"Make the method public and not final, or move @ModelArmorGuarded to a method that is", null);
	}

	private Optional<GuardedMethod> resolve(Method method, Class<?> targetClass) {
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		if (ReflectionUtils.isObjectMethod(specific) || Modifier.isStatic(specific.getModifiers())) {
			return Optional.empty();
		}
		ModelArmorGuarded annotation = AnnotatedElementUtils.findMergedAnnotation(specific, ModelArmorGuarded.class);
		boolean classLevel = annotation == null && Modifier.isPublic(specific.getModifiers());
		if (classLevel) {
			// a class-level annotation covers public methods only, the ones validate() checks at startup
			annotation = AnnotatedElementUtils.findMergedAnnotation(targetClass, ModelArmorGuarded.class);
		}
		if (annotation == null) {
			return Optional.empty();
		}
		try {
			return Optional.of(GuardedMethod.resolve(specific, annotation, this.defaultTemplate.get()));
		}
		catch (GuardedMethod.InvalidGuardedMethod ex) {
			throw (classLevel) ? ex.coveredBy(targetClass) : ex;
		}
	}

}
