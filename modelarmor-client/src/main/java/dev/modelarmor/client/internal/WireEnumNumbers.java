package dev.modelarmor.client.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.module.SimpleModule;

import dev.modelarmor.client.ByteDataType;
import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.MessageType;
import dev.modelarmor.client.RaiFilterType;
import dev.modelarmor.client.ScannedContentType;
import dev.modelarmor.client.SdpFindingLikelihood;
import dev.modelarmor.client.ThreatType;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.IntegratedService;
import dev.modelarmor.client.admin.TemplateMetadata;

/**
 * Reads a wire enum sent as its number by the number Google's proto gives it.
 *
 * <p>Proto3 JSON accepts an enum as its number (or its number in a string) as well as its name, and Google's own
 * Java client asks for numbers. Jackson alone would read a number as the position of our constant, which is wrong
 * wherever the proto's numbers have gaps ({@code RaiFilterType}: 2, 3, 6, 17) or we do not model its
 * {@code *_UNSPECIFIED} ({@code FilterEnforcement}: {@code ENABLED} is 1), and would fail the whole answer on a
 * number beyond an int or with a fraction. Here a number the table does not hold reads as {@code UNRECOGNIZED},
 * like an unknown name. Constants newer than the official schema the tests check against ({@code ByteDataType.IMAGE} and
 * {@code ZIP}, {@code IntegratedService.GOOGLE_MCP_SERVER}, {@code Modality.MODALITY_TEXT} and
 * {@code MODALITY_IMAGE}) have no number here: guessed, a number could name the wrong one. Names are read and
 * written as before.
 */
final class WireEnumNumbers {

	/** An int32 as proto3 JSON writes it; anything longer or with a fraction is no number of ours. */
	private static final Pattern INT32 = Pattern.compile("-?[0-9]{1,10}");

	private static final Map<Class<?>, Map<Integer, Enum<?>>> NUMBERS = table();

	private WireEnumNumbers() {
	}

	private static Map<Class<?>, Map<Integer, Enum<?>>> table() {
		Map<Class<?>, Map<Integer, Enum<?>>> table = new HashMap<>();
		numbers(table, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED, 0, FilterMatchState.NO_MATCH_FOUND, 1,
				FilterMatchState.MATCH_FOUND, 2);
		numbers(table, FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED, 0,
				FilterExecutionState.EXECUTION_SUCCESS, 1, FilterExecutionState.EXECUTION_SKIPPED, 2);
		numbers(table, InvocationResult.INVOCATION_RESULT_UNSPECIFIED, 0, InvocationResult.SUCCESS, 1,
				InvocationResult.PARTIAL, 2, InvocationResult.FAILURE, 3);
		numbers(table, SdpFindingLikelihood.SDP_FINDING_LIKELIHOOD_UNSPECIFIED, 0, SdpFindingLikelihood.VERY_UNLIKELY,
				1, SdpFindingLikelihood.UNLIKELY, 2, SdpFindingLikelihood.POSSIBLE, 3, SdpFindingLikelihood.LIKELY, 4,
				SdpFindingLikelihood.VERY_LIKELY, 5);
		numbers(table, DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED, 0,
				DetectionConfidenceLevel.LOW_AND_ABOVE, 1, DetectionConfidenceLevel.MEDIUM_AND_ABOVE, 2,
				DetectionConfidenceLevel.HIGH, 3);
		numbers(table, RaiFilterType.RAI_FILTER_TYPE_UNSPECIFIED, 0, RaiFilterType.SEXUALLY_EXPLICIT, 2,
				RaiFilterType.HATE_SPEECH, 3, RaiFilterType.HARASSMENT, 6, RaiFilterType.DANGEROUS, 17);
		numbers(table, MessageType.MESSAGE_TYPE_UNSPECIFIED, 0, MessageType.INFO, 1, MessageType.WARNING, 2,
				MessageType.ERROR, 3);
		numbers(table, ThreatType.THREAT_TYPE_UNSPECIFIED, 0, ThreatType.UNKNOWN, 1, ThreatType.VIRUS_OR_WORM, 2,
				ThreatType.MALICIOUS_PROGRAM, 3, ThreatType.POTENTIALLY_HARMFUL_CONTENT, 4,
				ThreatType.POTENTIALLY_UNWANTED_CONTENT, 5);
		numbers(table, ByteDataType.BYTE_ITEM_TYPE_UNSPECIFIED, 0, ByteDataType.PLAINTEXT_UTF8, 1, ByteDataType.PDF,
				2, ByteDataType.WORD_DOCUMENT, 3, ByteDataType.EXCEL_DOCUMENT, 4, ByteDataType.POWERPOINT_DOCUMENT, 5,
				ByteDataType.TXT, 6, ByteDataType.CSV, 7);
		numbers(table, ScannedContentType.SCANNED_CONTENT_TYPE_UNSPECIFIED, 0, ScannedContentType.UNKNOWN, 1,
				ScannedContentType.PLAINTEXT, 2, ScannedContentType.PDF, 3);
		// 0 is each settings message's own *_ENFORCEMENT_UNSPECIFIED, which we do not model.
		numbers(table, FilterEnforcement.ENABLED, 1, FilterEnforcement.DISABLED, 2);
		numbers(table, IntegratedService.INTEGRATED_SERVICE_UNSPECIFIED, 0, IntegratedService.AI_PLATFORM, 1);
		numbers(table, TemplateMetadata.EnforcementType.ENFORCEMENT_TYPE_UNSPECIFIED, 0,
				TemplateMetadata.EnforcementType.INSPECT_ONLY, 1, TemplateMetadata.EnforcementType.INSPECT_AND_BLOCK, 2);
		numbers(table, TemplateMetadata.Modality.MODALITY_UNSPECIFIED, 0);
		return Map.copyOf(table);
	}

	/** Constants and their numbers, alternating, all of one enum. */
	private static void numbers(Map<Class<?>, Map<Integer, Enum<?>>> table, Object... constantThenNumber) {
		Map<Integer, Enum<?>> numbers = new HashMap<>();
		for (int i = 0; i < constantThenNumber.length; i += 2) {
			numbers.put((Integer) constantThenNumber[i + 1], (Enum<?>) constantThenNumber[i]);
		}
		table.put(((Enum<?>) constantThenNumber[0]).getDeclaringClass(), Map.copyOf(numbers));
	}

	/**
	 * The enums this class reads numbers for.
	 * @return the wire enums
	 */
	static Set<Class<?>> wireEnums() {
		return NUMBERS.keySet();
	}

	/**
	 * A module that makes a mapper read every wire enum's numbers by the proto.
	 * @return the module
	 */
	static JacksonModule module() {
		return new SimpleModule("modelarmor-enum-numbers").setDeserializerModifier(new ValueDeserializerModifier() {

			@Override
			public ValueDeserializer<?> modifyEnumDeserializer(DeserializationConfig config, JavaType type,
					BeanDescription.Supplier beanDescRef, ValueDeserializer<?> deserializer) {
				Map<Integer, Enum<?>> numbers = NUMBERS.get(type.getRawClass());
				return (numbers != null) ? new ByNumber(deserializer, numbers, type.getRawClass()) : deserializer;
			}

		});
	}

	private static final class ByNumber extends DelegatingDeserializer {

		private final Map<Integer, Enum<?>> numbers;

		private final Enum<?> unrecognized;

		ByNumber(ValueDeserializer<?> byName, Map<Integer, Enum<?>> numbers, Class<?> type) {
			super(byName);
			this.numbers = numbers;
			this.unrecognized = unrecognized(type);
		}

		@Override
		protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> byName) {
			return new ByNumber(byName, this.numbers, this.unrecognized.getDeclaringClass());
		}

		@Override
		public Object deserialize(JsonParser parser, DeserializationContext context) {
			JsonToken token = parser.currentToken();
			if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
				return byNumber(parser.getString());
			}
			if (token == JsonToken.VALUE_STRING && INT32.matcher(parser.getString()).matches()) {
				return byNumber(parser.getString());
			}
			return super.deserialize(parser, context);
		}

		private Enum<?> byNumber(String text) {
			if (!INT32.matcher(text).matches()) {
				return this.unrecognized;
			}
			long number = Long.parseLong(text);
			if (number != (int) number) {
				return this.unrecognized;
			}
			@Nullable Enum<?> constant = this.numbers.get((int) number);
			return (constant != null) ? constant : this.unrecognized;
		}

		private static Enum<?> unrecognized(Class<?> type) {
			for (Object constant : type.getEnumConstants()) {
				if (((Enum<?>) constant).name().equals("UNRECOGNIZED")) {
					return (Enum<?>) constant;
				}
			}
			throw new IllegalStateException(type.getName() + " has no UNRECOGNIZED");
		}

	}

}
