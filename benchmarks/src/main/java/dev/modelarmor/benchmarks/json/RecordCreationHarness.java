package dev.modelarmor.benchmarks.json;

import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelarmor.benchmarks.jmh.LoopbackServer;
import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.Base64Variants;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.bean.PropertyValueBuffer;
import tools.jackson.databind.introspect.AnnotatedWithParams;
import tools.jackson.databind.json.JsonMapper;

/**
 * Whether the technique of the starter's {@code RecordConstructorInstantiators} still pays on the running
 * JDK: the time to read a Model Armor answer into the starter's public records as Jackson alone does it,
 * and with record constructors called by plain reflection. Interleaved rounds (each reader in turn, in
 * alternating order, for the same time on the same thread), medians over rounds, the ratio "with / without"
 * printed per answer: below 1 the technique saves time.
 *
 * <p>Only public API: the starter's mapper and its instantiators are package-private, and the benchmarks
 * add no class to the starter's packages. So this harness reads through a mapper configured as the wire
 * mapping says and a copy of the instantiators' one idea ({@link ByConstructor});
 * when either changes in the starter, change it here. Run it on each JDK with the same jar:
 * <pre>
 * mvn -B -Pbenchmarks -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.json.RecordCreationHarness [rounds] [round-ms]
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.json.RecordCreationHarness
 * </pre>
 */
public final class RecordCreationHarness {

	/** Every filter, findings, messages and metadata: the most records one sanitize answer holds. */
	static final byte[] FULL_ANSWER = """
			{"sanitizationResult":{"filterMatchState":"MATCH_FOUND","invocationResult":"SUCCESS","filterResults":{\
			"rai":{"raiFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"MATCH_FOUND",\
			"messageItems":[{"messageType":"WARNING","message":"warning text"}],"raiFilterTypeResults":{\
			"hate_speech":{"filterType":"HATE_SPEECH","confidenceLevel":"MEDIUM_AND_ABOVE","matchState":"MATCH_FOUND"},\
			"dangerous":{"filterType":"DANGEROUS","confidenceLevel":"HIGH","matchState":"NO_MATCH_FOUND"},\
			"harassment":{"filterType":"HARASSMENT","matchState":"NO_MATCH_FOUND"},\
			"sexually_explicit":{"filterType":"SEXUALLY_EXPLICIT","matchState":"NO_MATCH_FOUND"}}}},\
			"sdp":{"sdpFilterResult":{"inspectResult":{"executionState":"EXECUTION_SUCCESS","matchState":"MATCH_FOUND",\
			"findings":[{"infoType":"EMAIL_ADDRESS","likelihood":"LIKELY","location":{"byteRange":{"start":"5","end":"22"},\
			"codepointRange":{"start":"5","end":"22"}}},{"infoType":"PHONE_NUMBER","likelihood":"POSSIBLE",\
			"location":{"byteRange":{"start":"30","end":"42"},"codepointRange":{"start":"30","end":"42"}}}],\
			"findingsTruncated":false}}},\
			"sdp_deidentify":{"sdpFilterResult":{"deidentifyResult":{"executionState":"EXECUTION_SUCCESS",\
			"matchState":"MATCH_FOUND","data":{"text":"Mail [EMAIL_ADDRESS] or call [PHONE_NUMBER]"},\
			"transformedBytes":"29","infoTypes":["EMAIL_ADDRESS","PHONE_NUMBER"]}}},\
			"pi_and_jailbreak":{"piAndJailbreakFilterResult":{"executionState":"EXECUTION_SUCCESS",\
			"matchState":"MATCH_FOUND","confidenceLevel":"HIGH"}},\
			"malicious_uris":{"maliciousUriFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"MATCH_FOUND",\
			"maliciousUriMatchedItems":[{"uri":"http://bad.example","locations":[{"start":"50","end":"68"}]}]}},\
			"csam":{"csamFilterFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"NO_MATCH_FOUND"}},\
			"virus_scan":{"virusScanFilterResult":{"executionState":"EXECUTION_SUCCESS","matchState":"NO_MATCH_FOUND",\
			"scannedContentType":"PLAINTEXT","scannedSize":"68"}}},\
			"sanitizationMetadata":{"errorCode":"0","errorMessage":"","ignorePartialInvocationFailures":false}}}"""
		.getBytes(StandardCharsets.UTF_8);

	/** Keeps the JIT from dropping the reads. */
	private static volatile int sink;

	private RecordCreationHarness() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 15;
		long roundNanos = ((args.length > 1) ? Long.parseLong(args[1]) : 500) * 1_000_000L;
		ObjectReader jacksonAlone = wireMapping().build().readerFor(Answer.class);
		ObjectReader withInstantiators = wireMapping().addModule(constructorsByReflection())
			.build()
			.readerFor(Answer.class);
		Map<String, byte[]> answers = new LinkedHashMap<>();
		answers.put("per-call benchmark's answer (2 filters)", LoopbackServer.ANSWER);
		answers.put("full answer (7 filters, findings)", FULL_ANSWER);
		System.out.printf(Locale.ROOT, "java.version=%s vm=%s rounds=%d round_ms=%d%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), rounds, roundNanos / 1_000_000);
		for (Map.Entry<String, byte[]> answer : answers.entrySet()) {
			byte[] json = answer.getValue();
			Object expected = jacksonAlone.readValue(json);
			Object read = withInstantiators.readValue(json);
			if (!expected.equals(read)) {
				throw new IllegalStateException("the instantiators read another answer: " + read);
			}
			List<Double> without = new ArrayList<>();
			List<Double> with = new ArrayList<>();
			for (int round = -3; round < rounds; round++) { // three rounds of warm-up
				// alternate which goes first, so that neither always runs right after the other's garbage
				boolean aloneFirst = (round & 1) == 0;
				double first = run(aloneFirst ? jacksonAlone : withInstantiators, json, roundNanos);
				double second = run(aloneFirst ? withInstantiators : jacksonAlone, json, roundNanos);
				double alone = aloneFirst ? first : second;
				double instantiated = aloneFirst ? second : first;
				if (round >= 0) {
					without.add(alone);
					with.add(instantiated);
				}
			}
			System.out.printf(Locale.ROOT,
					"%s: Jackson alone %.0f ns/read, with instantiators %.0f ns/read, ratio with/without %.3f%n",
					answer.getKey(), median(without), median(with), median(with) / median(without));
		}
	}

	private static double run(ObjectReader reader, byte[] answer, long roundNanos) throws Exception {
		long reads = 0;
		int hash = 0;
		long start = System.nanoTime();
		long elapsed;
		do {
			for (int i = 0; i < 64; i++) {
				hash += reader.readValue(answer).hashCode();
			}
			reads += 64;
			elapsed = System.nanoTime() - start;
		}
		while (elapsed < roundNanos);
		sink = hash;
		return (double) elapsed / reads;
	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	/** The sanitize answer's envelope; the starter's own is package-private. */
	public record Answer(@Nullable SanitizationResult sanitizationResult) {
	}

	/** The starter's wire mapping, as its {@code ModelArmorJson.jacksonOnly()} sets it. */
	static JsonMapper.Builder wireMapping() {
		return JsonMapper.builder()
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.enable(EnumFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE)
			.disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			.disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
			.disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
			.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL)
				.withContentInclusion(JsonInclude.Include.NON_NULL))
			.defaultBase64Variant(Base64Variants.MIME_NO_LINEFEEDS)
			.disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
	}

	/** Records created through {@link Constructor#newInstance}, as the starter's instantiators do. */
	static JacksonModule constructorsByReflection() {
		return new JacksonModule() {

			@Override
			public String getModuleName() {
				return "benchmark-record-constructors";
			}

			@Override
			public Version version() {
				return Version.unknownVersion();
			}

			@Override
			public void setupModule(SetupContext context) {
				context.addValueInstantiators(new ValueInstantiators() {

					@Override
					public @Nullable ValueInstantiator findValueInstantiator(DeserializationConfig config,
							BeanDescription.Supplier description) {
						return null;
					}

					@Override
					public ValueInstantiator modifyValueInstantiator(DeserializationConfig config,
							BeanDescription.Supplier description, ValueInstantiator found) {
						AnnotatedWithParams creator = found.getWithArgsCreator();
						if (description.getBeanClass().isRecord() && creator != null
								&& creator.getAnnotated() instanceof Constructor<?> constructor) {
							return new ByConstructor(found, constructor);
						}
						return found;
					}

				});
			}

		};
	}

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
