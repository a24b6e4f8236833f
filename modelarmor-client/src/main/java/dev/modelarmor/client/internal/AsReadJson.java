package dev.modelarmor.client.internal;

import dev.modelarmor.client.admin.AsRead;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.Template;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ser.ValueSerializerModifier;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Lossless round trips of templates and floor settings. Reading keeps the JSON object as Model Armor sent it
 * ({@link AsRead}); sending builds the body from that JSON, changed only where the value sent differs from the
 * value as read, so that members and enum values the records do not model travel back as they came.
 *
 * <p>The comparison runs on a view of the records in which an enum value read as {@code UNRECOGNIZED} is
 * written as a marker no JSON from Model Armor holds: where the value sent keeps it, the JSON as read gives
 * the wire string; a marker left in the body (an {@code UNRECOGNIZED} built in Java, or moved away from
 * where it was read) is refused before anything is sent.
 */
public final class AsReadJson {

	/** What {@code UNRECOGNIZED} is in the view: no string that Model Armor sends. */
	static final String UNRECOGNIZED_MARKER = "\u0000UNRECOGNIZED";

	private static final JsonMapper VIEW = ModelArmorJson.jacksonOnly().addModule(viewModule()).build();

	private AsReadJson() {
	}

	/**
	 * A module that makes the wire mapper keep the JSON of every template and floor setting it reads.
	 * @return the module
	 */
	static JacksonModule module() {
		return new JacksonModule() {

			@Override
			public String getModuleName() {
				return "modelarmor-as-read";
			}

			@Override
			public Version version() {
				return Version.unknownVersion();
			}

			@Override
			public void setupModule(SetupContext context) {
				context.addDeserializerModifier(new ValueDeserializerModifier() {

					@Override
					public ValueDeserializer<?> modifyDeserializer(DeserializationConfig config,
							BeanDescription.Supplier description, ValueDeserializer<?> deserializer) {
						Class<?> type = description.getBeanClass();
						return (type == Template.class || type == FloorSetting.class) ? new KeepingAsRead(deserializer)
								: deserializer;
					}

				});
			}

		};
	}

	/**
	 * The body that sends a template: its JSON as read, changed where the template differs from it.
	 * @param template the template to send
	 * @return the body
	 * @throws IllegalArgumentException when the template holds {@code UNRECOGNIZED} where nothing was read
	 */
	public static JsonNode body(Template template) {
		AsRead asRead = template.asRead();
		JsonNode now = VIEW.valueToTree(template);
		if (asRead == null) {
			return requireNoMarker(now, "template");
		}
		JsonNode raw = readObject(asRead, "template");
		JsonNode before = VIEW.valueToTree(readAs(raw, Template.class, "template"));
		return requireNoMarker(ThreeWayJsonMerge.merge(raw, before, now), "template");
	}

	/**
	 * The body that sends a floor setting: its JSON as read, changed where the floor setting differs from it.
	 * @param floorSetting the floor setting to send
	 * @return the body
	 * @throws IllegalArgumentException when the floor setting holds {@code UNRECOGNIZED} where nothing was read
	 */
	public static JsonNode body(FloorSetting floorSetting) {
		AsRead asRead = floorSetting.asRead();
		JsonNode now = VIEW.valueToTree(floorSetting);
		if (asRead == null) {
			return requireNoMarker(now, "floorSetting");
		}
		JsonNode raw = readObject(asRead, "floorSetting");
		JsonNode before = VIEW.valueToTree(readAs(raw, FloorSetting.class, "floorSetting"));
		return requireNoMarker(ThreeWayJsonMerge.merge(raw, before, now), "floorSetting");
	}

	private static <T> T readAs(JsonNode raw, Class<T> type, String what) {
		try {
			return ModelArmorJson.mapper().treeToValue(raw, type);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("The " + what + "'s asRead is not a " + what + " this client reads");
		}
	}

	private static JsonNode readObject(AsRead asRead, String what) {
		try {
			JsonNode raw = ModelArmorJson.mapper().readTree(asRead.json());
			if (raw != null && raw.isObject()) {
				return raw;
			}
		}
		catch (JacksonException ex) {
			// reported below, without the JSON
		}
		throw new IllegalArgumentException("The " + what + "'s asRead is not a JSON object");
	}

	private static JsonNode requireNoMarker(@Nullable JsonNode body, String path) {
		if (body == null) {
			throw new IllegalArgumentException("Nothing to send");
		}
		String marked = markedPath(body, path);
		if (marked != null) {
			// The path may name members that Model Armor sent: only printable, and cut short.
			throw new IllegalArgumentException(ServerText.printable(marked, 200) + " is UNRECOGNIZED, which cannot be sent: a value this client "
					+ "could not read travels back only where it was read, in a template or floor setting read from "
					+ "Model Armor and changed with its with... methods");
		}
		return body;
	}

	private static @Nullable String markedPath(JsonNode node, String path) {
		if (node.isString()) {
			return UNRECOGNIZED_MARKER.equals(node.stringValue()) ? path : null;
		}
		if (node.isObject()) {
			for (var member : node.properties()) {
				String found = markedPath(member.getValue(), path + "." + member.getKey());
				if (found != null) {
					return found;
				}
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				String found = markedPath(node.get(i), path + "[" + i + "]");
				if (found != null) {
					return found;
				}
			}
		}
		return null;
	}

	private static JacksonModule viewModule() {
		return new JacksonModule() {

			@Override
			public String getModuleName() {
				return "modelarmor-as-read-view";
			}

			@Override
			public Version version() {
				return Version.unknownVersion();
			}

			@Override
			public void setupModule(SetupContext context) {
				context.addSerializerModifier(new ValueSerializerModifier() {

					@Override
					public ValueSerializer<?> modifyEnumSerializer(SerializationConfig config, JavaType valueType,
							BeanDescription.Supplier description, ValueSerializer<?> serializer) {
						return new MarkingUnrecognized(serializer);
					}

				});
			}

		};
	}

	/** Writes {@code UNRECOGNIZED} as the marker, every other value as the wire mapper does. */
	private static final class MarkingUnrecognized extends StdSerializer<Object> {

		private final ValueSerializer<Object> wire;

		@SuppressWarnings("unchecked")
		MarkingUnrecognized(ValueSerializer<?> wire) {
			super(Object.class);
			this.wire = (ValueSerializer<Object>) wire;
		}

		@Override
		public void serialize(Object value, JsonGenerator generator, SerializationContext context) {
			if (value instanceof Enum<?> constant && "UNRECOGNIZED".equals(constant.name())) {
				generator.writeString(UNRECOGNIZED_MARKER);
			}
			else {
				this.wire.serialize(value, generator, context);
			}
		}

	}

	/** The records' own deserializer, given the tree it reads; the tree is kept as the value's {@link AsRead}. */
	private static final class KeepingAsRead extends DelegatingDeserializer {

		KeepingAsRead(ValueDeserializer<?> records) {
			super(records);
		}

		@Override
		protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> records) {
			return new KeepingAsRead(records);
		}

		@Override
		public Object deserialize(JsonParser parser, DeserializationContext context) {
			JsonNode tree = context.readTree(parser);
			Object value;
			try (JsonParser treeParser = tree.traverse(context)) {
				treeParser.nextToken();
				value = this._delegatee.deserialize(treeParser, context);
			}
			if (!tree.isObject()) {
				return value;
			}
			AsRead asRead = new AsRead(tree.toString());
			if (value instanceof Template template) {
				return new Template(template.name(), template.createTime(), template.updateTime(), template.labels(),
						template.filterConfig(), template.templateMetadata(), asRead);
			}
			if (value instanceof FloorSetting floor) {
				return new FloorSetting(floor.name(), floor.createTime(), floor.updateTime(), floor.filterConfig(),
						floor.enableFloorSettingEnforcement(), floor.integratedServices(),
						floor.aiPlatformFloorSetting(), floor.googleMcpServerFloorSetting(),
						floor.floorSettingMetadata(), asRead);
			}
			return value;
		}

	}

}
