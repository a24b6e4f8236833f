package dev.modelarmor.client.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.Base64Variants;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON mapping of the Model Armor REST API (proto3 JSON mapping).
 *
 * <p>A mapper of its own rather than the application's: the wire format must not change with
 * {@code spring.jackson.*} settings or with modules an application registers.
 */
public final class ModelArmorJson {

	private static final JsonMapper MAPPER = jacksonOnly().addModule(RecordConstructorInstantiators.module())
		.addModule(AsReadJson.module())
		.build();

	/** One reader per answer type, its deserializer found once rather than at every call. */
	private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {

		@Override
		protected ObjectReader computeValue(Class<?> type) {
			return MAPPER.readerFor(type);
		}

	};

	/** One writer per body type, its serializer found once rather than at every call. */
	private static final ClassValue<ObjectWriter> WRITERS = new ClassValue<>() {

		@Override
		protected ObjectWriter computeValue(Class<?> type) {
			return MAPPER.writerFor(type);
		}

	};

	private ModelArmorJson() {
	}

	/**
	 * The mapping as Jackson alone does it; the shared mapper adds faster record creation and keeps the JSON of
	 * templates and floor settings as read.
	 */
	static JsonMapper.Builder jacksonOnly() {
		return JsonMapper.builder()
			// An enum sent as its number reads by the proto's number, not by the order of our constants.
			.addModule(WireEnumNumbers.module())
			// The API gains fields and enum values over time; older clients must keep working.
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.enable(EnumFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE)
			// An explicit JSON null for a number or a boolean means the proto3 default, 0 or false.
			.disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			// Enums travel by name; toString() is not part of the wire format.
			.disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
			.disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
			// Proto3 JSON leaves out unset fields; a null would be rejected for a oneof member.
			.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL)
				.withContentInclusion(JsonInclude.Include.NON_NULL))
			.defaultBase64Variant(Base64Variants.MIME_NO_LINEFEEDS)
			.disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
	}

	/**
	 * The shared mapper. Jackson 3 mappers are immutable and thread-safe.
	 * @return the mapper
	 */
	public static JsonMapper mapper() {
		return MAPPER;
	}

	/**
	 * The shared mapper's reader for one type. Readers are immutable and thread-safe.
	 * @param type the type to read
	 * @return the reader
	 */
	public static ObjectReader readerFor(Class<?> type) {
		return READERS.get(type);
	}

	/**
	 * The shared mapper's writer for one type of request body. Writers are immutable and thread-safe.
	 * @param type the type to write
	 * @return the writer
	 */
	public static ObjectWriter writerFor(Class<?> type) {
		return WRITERS.get(type);
	}

}
