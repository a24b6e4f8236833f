package dev.modelarmor.guard;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * What the properties of a guarded method's argument and return types are, as SpEL reads them
 * (a getter {@code getText()} or {@code isText()}, a record-style accessor {@code text()}, a public field
 * {@code text}): the start-up checks and hints read the declared types, so they know a type only where
 * the value cannot be anything else. An interface, an abstract class, {@code Object}, a type variable, a
 * map, an {@code Optional}, an array or a {@code Class} may hold values whose properties the declared type
 * does not show: such a type is unknown, and nothing is said about it.
 */
final class GuardedTypes {

	private GuardedTypes() {
	}

	/**
	 * Whether the properties of a declared type are all that a value of it can have.
	 * @param type the declared type
	 * @return the class to look in, or {@code null} when the type is unknown
	 */
	static @Nullable Class<?> known(ResolvableType type) {
		Class<?> resolved = type.resolve();
		if (resolved == null) {
			return null;
		}
		if (resolved.isPrimitive()) {
			return ClassUtils.resolvePrimitiveIfNecessary(resolved);
		}
		boolean open = resolved == Object.class || resolved.isInterface() || Modifier.isAbstract(resolved.getModifiers())
				|| resolved.isArray() || resolved == Class.class || resolved == Optional.class
				|| Map.class.isAssignableFrom(resolved);
		return open ? null : resolved;
	}

	/**
	 * The type of a property, as SpEL reads it.
	 * @param owner the class that has it
	 * @param name the property's name
	 * @return its declared type, or {@code null} when the class has no such property
	 */
	static @Nullable ResolvableType property(Class<?> owner, String name) {
		Set<String> methodNames = accessorNames(name);
		for (Method method : owner.getMethods()) {
			if (method.getParameterCount() == 0 && method.getReturnType() != void.class
					&& methodNames.contains(method.getName())) {
				return ResolvableType.forMethodReturnType(method, owner);
			}
		}
		for (Field field : owner.getFields()) {
			if (field.getName().equals(name)) {
				return ResolvableType.forField(field, owner);
			}
		}
		return null;
	}

	/**
	 * The properties of a class that SpEL reads, in a stable order: a record's components in their
	 * order, otherwise getters and then public fields by name.
	 * @param owner the class
	 * @param textOnly only the properties whose declared type is a {@link CharSequence}
	 * @return the names
	 */
	static List<String> properties(Class<?> owner, boolean textOnly) {
		Set<String> names = new LinkedHashSet<>();
		if (owner.isRecord()) {
			for (RecordComponent component : owner.getRecordComponents()) {
				if (!textOnly || isText(component.getType())) {
					names.add(component.getName());
				}
			}
		}
		List<String> getters = new ArrayList<>();
		for (Method method : owner.getMethods()) {
			String property = getterProperty(method);
			if (property != null && (!textOnly || isText(method.getReturnType()))) {
				getters.add(property);
			}
		}
		getters.stream().sorted().forEach(names::add);
		List<String> fields = new ArrayList<>();
		for (Field field : owner.getFields()) {
			if (!Modifier.isStatic(field.getModifiers()) && (!textOnly || isText(field.getType()))) {
				fields.add(field.getName());
			}
		}
		fields.stream().sorted().forEach(names::add);
		return List.copyOf(names);
	}

	/**
	 * The text properties of a declared type.
	 * @param type the declared type
	 * @return the properties' names, empty when the type is unknown or has none
	 */
	static List<String> textProperties(ResolvableType type) {
		Class<?> known = known(type);
		return (known != null) ? properties(known, true) : List.of();
	}

	private static boolean isText(Class<?> type) {
		return CharSequence.class.isAssignableFrom(type);
	}

	/** {@code getText} and {@code isText} as a property's name, {@code null} for any other method. */
	private static @Nullable String getterProperty(Method method) {
		if (method.getParameterCount() != 0 || method.getReturnType() == void.class
				|| Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
			return null;
		}
		String name = method.getName();
		int prefix = (name.startsWith("get") && name.length() > 3) ? 3
				: (name.startsWith("is") && name.length() > 2
						&& (method.getReturnType() == boolean.class || method.getReturnType() == Boolean.class)) ? 2 : 0;
		if (prefix == 0) {
			return null;
		}
		return StringUtils.uncapitalize(name.substring(prefix));
	}

	/**
	 * The methods SpEL's reflective accessor reads a property through: {@code getX}, {@code isX} (each with
	 * the name as written, too, for names such as {@code uRL}) and {@code x()}. Taken widely on purpose: a
	 * name wrongly taken as missing would fail a start that works.
	 */
	private static Set<String> accessorNames(String name) {
		String capitalized = StringUtils.capitalize(name);
		return new HashSet<>(List.of("get" + capitalized, "is" + capitalized, "get" + name, "is" + name, name));
	}

}
