package dev.modelarmor.client.internal;

import java.lang.reflect.Constructor;

import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.bean.PropertyValueBuffer;
import tools.jackson.databind.introspect.AnnotatedWithParams;

/**
 * Creates the API's records through their constructors by plain reflection. Jackson 3 calls a record's
 * canonical constructor with {@code MethodHandle.invokeWithArguments}, which adapts the handle anew on
 * every call; a sanitize answer holds half a dozen records, and on the request path that was the larger
 * part of reading it. {@link Constructor#newInstance} does that work once: on JDK 17 it is compiled to
 * bytecode after a few calls, and since JDK 18 (JEP 416) it runs on a method handle adapted once per
 * constructor. Both still pay, on JDK 17 and on JDK 25 alike: measured by
 * {@code dev.modelarmor.benchmarks.json.RecordCreationHarness} in the benchmarks module.
 *
 * <p>Only creation changes: Jackson still finds the constructor, binds and checks the arguments. A
 * constructor that throws is called again through Jackson, so that the failure is reported exactly as
 * Jackson reports it.
 */
final class RecordConstructorInstantiators implements ValueInstantiators {

	private static final String API_PACKAGE = SanitizationResult.class.getPackageName();

	/**
	 * A module that installs these instantiators.
	 * @return the module
	 */
	static JacksonModule module() {
		return new JacksonModule() {

			@Override
			public String getModuleName() {
				return "modelarmor-record-constructors";
			}

			@Override
			public Version version() {
				return Version.unknownVersion();
			}

			@Override
			public void setupModule(SetupContext context) {
				context.addValueInstantiators(new RecordConstructorInstantiators());
			}

		};
	}

	@Override
	public @Nullable ValueInstantiator findValueInstantiator(DeserializationConfig config,
			BeanDescription.Supplier description) {
		return null;
	}

	@Override
	public ValueInstantiator modifyValueInstantiator(DeserializationConfig config, BeanDescription.Supplier description,
			ValueInstantiator found) {
		Class<?> type = description.getBeanClass();
		AnnotatedWithParams creator = found.getWithArgsCreator();
		if (type.isRecord() && isApiType(type) && creator != null
				&& creator.getAnnotated() instanceof Constructor<?> constructor) {
			return new ByConstructor(found, constructor);
		}
		return found;
	}

	/** The API's records: the sanitize results here, the management records in the admin package. */
	private static boolean isApiType(Class<?> type) {
		String name = type.getPackageName();
		return name.equals(API_PACKAGE) || name.startsWith(API_PACKAGE + ".");
	}

	/** Jackson's own instantiator, but for the one call that creates the record. */
	private static final class ByConstructor extends ValueInstantiator.Delegating {

		private final Constructor<?> constructor;

		ByConstructor(ValueInstantiator jacksons, Constructor<?> constructor) {
			super(jacksons);
			this.constructor = constructor;
			constructor.trySetAccessible();
		}

		@Override
		public ValueInstantiator createContextual(DeserializationContext context, BeanDescription.Supplier description) {
			ValueInstantiator contextual = delegate().createContextual(context, description);
			return (contextual == delegate()) ? this : new ByConstructor(contextual, this.constructor);
		}

		@Override
		public Object createFromObjectWith(DeserializationContext context, SettableBeanProperty[] properties,
				PropertyValueBuffer buffer) {
			return createFromObjectWith(context, buffer.getParameters(context, properties));
		}

		@Override
		public Object createFromObjectWith(DeserializationContext context, Object[] arguments) {
			try {
				return this.constructor.newInstance(arguments);
			}
			catch (ReflectiveOperationException | IllegalArgumentException ex) {
				return delegate().createFromObjectWith(context, arguments);
			}
		}

	}

}
