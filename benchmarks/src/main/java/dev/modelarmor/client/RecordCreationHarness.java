package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.modelarmor.benchmarks.jmh.LoopbackServer;
import tools.jackson.databind.ObjectReader;

/**
 * Whether {@link RecordConstructorInstantiators} still pays on the running JDK: the time to read a Model
 * Armor answer with the starter's mapping as Jackson alone does it, and with the instantiators added.
 * Interleaved rounds (each reader in turn, in alternating order, for the same time on the same thread),
 * medians over rounds, the ratio "with / without" printed per answer: below 1 the instantiators save time.
 *
 * <p>In the package of the classes it measures, which are not public. Run it on each JDK with the same jar:
 * <pre>
 * mvn -B -Pbenchmarks -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.client.RecordCreationHarness [rounds] [round-ms]
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.client.RecordCreationHarness
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
		ObjectReader jacksonAlone = ModelArmorJson.jacksonOnly().build().readerFor(SanitizeResponse.class);
		ObjectReader withInstantiators = ModelArmorJson.jacksonOnly()
			.addModule(RecordConstructorInstantiators.module())
			.build()
			.readerFor(SanitizeResponse.class);
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

}
