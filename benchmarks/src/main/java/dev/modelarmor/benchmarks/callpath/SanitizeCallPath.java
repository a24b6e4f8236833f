package dev.modelarmor.benchmarks.callpath;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.modelarmor.benchmarks.jmh.LoopbackServer;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;

import org.springframework.web.client.RestClient;

/**
 * Counts the classes one {@code sanitizeUserPrompt} call passes through: the classes with at least one
 * JaCoCo probe hit during that call alone, after a warm-up that loads and initializes everything. A
 * measure of how much code a reader follows from the call to the wire and back, not of speed.
 *
 * <p>Run it with the JaCoCo agent (its runtime jar, {@code org.jacoco:org.jacoco.agent:0.8.15:jar:runtime}):
 * <pre>
 * mvn -B -Pbenchmarks -pl benchmarks -am package -DskipTests
 * mvn -B dependency:copy -Dartifact=org.jacoco:org.jacoco.agent:0.8.15:jar:runtime -DoutputDirectory=target/agent
 * java -javaagent:target/agent/org.jacoco.agent-0.8.15-runtime.jar=output=none \
 *     -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.callpath.SanitizeCallPath
 * </pre>
 * The agent's execution data is reset before the measured call and read right after it; the count is
 * the same on every run, since the call takes the same path each time.
 */
public final class SanitizeCallPath {

	private static final int WARM_UP_CALLS = 20;

	private SanitizeCallPath() {
	}

	public static void main(String[] args) throws Exception {
		Object agent = Class.forName("org.jacoco.agent.rt.RT").getMethod("getAgent").invoke(null);
		Method reset = agent.getClass().getMethod("reset");
		Method executionData = agent.getClass().getMethod("getExecutionData", boolean.class);
		reset.setAccessible(true);
		executionData.setAccessible(true);
		try (LoopbackServer server = LoopbackServer.start()) {
			ModelArmorTemplate template = ModelArmorTemplate.builder()
				.restClientBuilder(RestClient.builder())
				.endpoint(ModelArmorEndpoint.of(server.url()))
				.projectId("path-project")
				.location("us-central1")
				.templateId("path-template")
				.build();
			for (int i = 0; i < WARM_UP_CALLS; i++) {
				template.sanitizeUserPrompt("What is the capital of France?");
			}
			reset.invoke(agent);
			template.sanitizeUserPrompt("What is the capital of France?");
			byte[] data = (byte[]) executionData.invoke(agent, false);
			report(hitClasses(data));
		}
	}

	private static void report(TreeSet<String> classes) {
		Map<String, Integer> perPackage = new TreeMap<>();
		TreeSet<String> starter = new TreeSet<>();
		TreeSet<String> starterSources = new TreeSet<>();
		for (String name : classes) {
			if (name.startsWith("dev/modelarmor/benchmarks/")) {
				continue; // this program and the local server
			}
			String packageName = name.substring(0, Math.max(0, name.lastIndexOf('/'))).replace('/', '.');
			perPackage.merge(packageName, 1, Integer::sum);
			if (name.startsWith("dev/modelarmor/")) {
				starter.add(name.replace('/', '.'));
				int nested = name.indexOf('$');
				starterSources.add(((nested < 0) ? name : name.substring(0, nested)).replace('/', '.'));
			}
		}
		System.out.println("classes of the starter a sanitize call passes through: " + starter.size() + " (in "
				+ starterSources.size() + " top-level types)");
		starter.forEach((name) -> System.out.println("  " + name));
		System.out.println("per package, all instrumented classes (the JDK's own java.base excluded, the server's side included):");
		perPackage.forEach((name, count) -> System.out.println("  " + name + ": " + count));
	}

	/**
	 * Reads JaCoCo's execution-data format: a header block, session blocks and one block per class with
	 * its probe array, booleans packed eight to a byte after a variable-length count.
	 */
	private static TreeSet<String> hitClasses(byte[] data) throws IOException {
		TreeSet<String> hit = new TreeSet<>();
		DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
		int type;
		while ((type = in.read()) != -1) {
			switch (type) {
				case 0x01 -> {
					in.readChar();
					in.readChar();
				}
				case 0x10 -> {
					in.readUTF();
					in.readLong();
					in.readLong();
				}
				case 0x11 -> {
					in.readLong();
					String name = in.readUTF();
					if (anyProbeHit(in)) {
						hit.add(name);
					}
				}
				default -> throw new IOException("Unknown block type " + type);
			}
		}
		return hit;
	}

	private static boolean anyProbeHit(DataInputStream in) throws IOException {
		int length = readVarInt(in);
		boolean any = false;
		for (int i = 0; i < (length + 7) / 8; i++) {
			any |= in.readUnsignedByte() != 0;
		}
		return any;
	}

	private static int readVarInt(DataInputStream in) throws IOException {
		int value = in.readUnsignedByte();
		if ((value & 0x80) == 0) {
			return value;
		}
		return (value & 0x7F) | (readVarInt(in) << 7);
	}

}
