package dev.modelarmor.benchmarks.streams;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.test.ModelArmorStandIn;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * When a screened stream's first byte reaches the caller, and what it costs in Model Armor calls: answers of
 * 200, 2,000 and 20,000 bytes from a model that sends one word per chunk at a steady pace, through Spring AI's
 * auto-configured {@code ChatClient} with the advisor (segmented, the default) and through a
 * {@code @ModelArmorGuarded} method returning the model's {@code Flux<String>}, the test kit's
 * {@link ModelArmorStandIn} answering each call after a delay (60 ms: a remote Model Armor).
 *
 * <p>Two builds in one run: this jar and, when given, another build's jar of this harness (main's, before a
 * change), each round one fresh JVM of each, in alternating order, each JVM measuring every answer once after
 * one warm-up. Per row: the answer's {@code sanitizeModelResponse} calls, the time to the first byte the
 * caller receives and to the last, when the model had sent its first 300 bytes (all of a shorter answer),
 * and that plus one Model Armor round trip as this run saw it (the prompt's screening, from the caller's
 * subscription to the model's), medians over the rounds with the spread (min–max). Times are from the
 * caller's subscription, so the prompt's screening is in all of them.
 *
 * <pre>java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.streams.StreamFirstByteHarness [rounds] [chunk-pace-ms] [model-armor-ms] [other-build.jar]</pre>
 */
public final class StreamFirstByteHarness {

	static final int[] SIZES = { 200, 2_000, 20_000 };

	private static final String[] WORDS = { "The ", "train ", "to ", "Lyon ", "leaves ", "from ", "Gare ", "de ",
			"Lyon ", "every ", "hour, ", "and ", "the ", "trip ", "takes ", "two ", "hours. " };

	private static final String MEASURE = "--measure";

	private StreamFirstByteHarness() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(MEASURE)) {
			measure(Long.parseLong(args[1]), Long.parseLong(args[2]));
			return;
		}
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		long paceMillis = (args.length > 1) ? Long.parseLong(args[1]) : 2;
		long delayMillis = (args.length > 2) ? Long.parseLong(args[2]) : 60;
		Map<String, String> builds = new LinkedHashMap<>();
		if (args.length > 3) {
			builds.put("before", args[3]);
		}
		builds.put("after", System.getProperty("java.class.path"));
		Map<String, List<Row>> rows = new LinkedHashMap<>();
		for (int round = 0; round < rounds; round++) {
			List<String> order = new ArrayList<>(builds.keySet());
			if (round % 2 == 1) {
				Collections.reverse(order);
			}
			for (String build : order) {
				for (Row row : run(builds.get(build), paceMillis, delayMillis)) {
					rows.computeIfAbsent(row.path() + "\t" + row.bytes() + "\t" + build, (key) -> new ArrayList<>()).add(row);
				}
			}
			System.err.printf(Locale.ROOT, "round %d of %d done%n", round + 1, rounds);
		}
		System.out.printf(Locale.ROOT, "%d rounds; one word (about 5.5 bytes) per chunk every %d ms; Model Armor "
				+ "answers after %d ms; load average at the end: %s%n", rounds, paceMillis, delayMillis, loadAverage());
		System.out.println("| path | answer bytes | build | answer calls | first byte ms | model's 300th byte ms "
				+ "| + one round trip | first byte − that | last byte ms |");
		System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|");
		for (Map.Entry<String, List<Row>> entry : rows.entrySet()) {
			List<Row> list = entry.getValue();
			String[] key = entry.getKey().split("\t");
			double first = median(list, Row::firstMillis);
			double at300 = median(list, Row::modelAt300Millis);
			double allowed = at300 + median(list, Row::roundTripMillis);
			System.out.printf(Locale.ROOT, "| %s | %,d | %s | %s | %s | %.0f | %.0f | %+.0f | %s |%n", key[0],
					Integer.parseInt(key[1]), key[2], spread(list, (row) -> row.calls(), "%.0f"),
					spread(list, Row::firstMillis, "%.0f"), at300, allowed, first - allowed,
					spread(list, Row::lastMillis, "%.0f"));
		}
	}

	/** One fresh JVM of a build: its rows, read from its standard output. */
	private static List<Row> run(String classPath, long paceMillis, long delayMillis)
			throws IOException, InterruptedException {
		Process process = new ProcessBuilder(Path.java(), "-cp", classPath, StreamFirstByteHarness.class.getName(),
				MEASURE, Long.toString(paceMillis), Long.toString(delayMillis))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		List<Row> rows = new ArrayList<>();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (line.startsWith("row\t")) {
					String[] f = line.split("\t");
					rows.add(new Row(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), Double.parseDouble(f[4]),
							Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7])));
				}
			}
		}
		if (process.waitFor() != 0 || rows.isEmpty()) {
			throw new IllegalStateException("a measuring JVM failed: " + classPath);
		}
		return rows;
	}

	/** In a measuring JVM: one warm-up, then every path and size once, each a {@code row} line. */
	private static void measure(long paceMillis, long delayMillis) {
		// Without it the JDK server's delayed acknowledgements add about 40 ms to every call on loopback.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start()) {
			ConfigurableApplicationContext context = new SpringApplicationBuilder(HarnessApplication.class)
				.web(WebApplicationType.NONE)
				.logStartupInfo(false)
				.properties("spring.main.banner-mode=off", "logging.level.root=WARN", "modelarmor.project-id=bench",
						"modelarmor.template-id=bench-template", "modelarmor.credentials.enabled=false",
						"modelarmor.endpoint=" + standIn.url(), "modelarmor.spring-ai.advisor.enabled=true",
						"harness.pace-millis=" + paceMillis)
				.run();
			try {
				ChatClient client = context.getBean(ChatClient.Builder.class).build();
				GuardedChat guarded = context.getBean(GuardedChat.class);
				PacedModel model = context.getBean(PacedModel.class);
				for (int pass = 0; pass < 2; pass++) {
					for (int size : SIZES) {
						if (pass == 0 && size > 2_000) {
							continue; // the warm-up
						}
						model.answer(size);
						for (String path : List.of("advisor", "guard")) {
							standIn.reset();
							standIn.delay(Duration.ofMillis(delayMillis)).always();
							Flux<String> stream = path.equals("advisor")
									? client.prompt().user("When does the train to Lyon leave?").stream().content()
									: guarded.chat("When does the train to Lyon leave?");
							Timing timing = time(stream, model);
							if (!timing.text().equals(model.text())) {
								throw new IllegalStateException(path + " emitted another text than the model's");
							}
							if (pass == 1) {
								System.out.printf(Locale.ROOT, "row\t%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f%n", path,
										size, standIn.receivedResponses().size(), timing.firstMillis(),
										timing.modelAt300Millis(), timing.lastMillis(), timing.roundTripMillis());
							}
						}
					}
				}
			}
			finally {
				context.close();
			}
		}
	}

	private static Timing time(Flux<String> stream, PacedModel model) {
		AtomicLong first = new AtomicLong(-1);
		long start = System.nanoTime();
		List<String> texts = stream.doOnNext((text) -> first.compareAndSet(-1, System.nanoTime()))
			.collectList()
			.block(Duration.ofMinutes(5));
		long end = System.nanoTime();
		return new Timing((first.get() - start) / 1e6, (model.at300() - start) / 1e6, (end - start) / 1e6,
				(model.started() - start) / 1e6, String.join("", Objects.requireNonNull(texts)));
	}

	private static String loadAverage() {
		try {
			return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg")),
					StandardCharsets.US_ASCII).trim();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static String spread(List<Row> rows, java.util.function.ToDoubleFunction<Row> value, String format) {
		List<Double> values = new ArrayList<>();
		rows.forEach((row) -> values.add(value.applyAsDouble(row)));
		Collections.sort(values);
		String median = String.format(Locale.ROOT, format, median(rows, value));
		if (values.get(0).equals(values.get(values.size() - 1))) {
			return median;
		}
		return median + String.format(Locale.ROOT, " (" + format + "–" + format + ")", values.get(0),
				values.get(values.size() - 1));
	}

	private static double median(List<Row> rows, java.util.function.ToDoubleFunction<Row> value) {
		List<Double> values = new ArrayList<>();
		rows.forEach((row) -> values.add(value.applyAsDouble(row)));
		Collections.sort(values);
		int n = values.size();
		return (n % 2 == 1) ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
	}

	/** One answer; the round trip is the prompt's screening, from the caller's subscription to the model's. */
	private record Row(String path, int bytes, int calls, double firstMillis, double modelAt300Millis,
			double lastMillis, double roundTripMillis) {
	}

	private record Timing(double firstMillis, double modelAt300Millis, double lastMillis, double roundTripMillis,
			String text) {
	}

	private static final class Path {

		static String java() {
			return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
		}

	}

	/**
	 * A model that streams an answer of a set length, one word per chunk, at a steady pace, and notes when it
	 * sent its 300th byte. One stream at a time.
	 */
	static final class PacedModel implements ChatModel {

		private final long paceMillis;

		private volatile List<String> chunks = List.of();

		private final AtomicLong at300 = new AtomicLong();

		private final AtomicLong started = new AtomicLong();

		PacedModel(long paceMillis) {
			this.paceMillis = paceMillis;
		}

		void answer(int bytes) {
			List<String> chunks = new ArrayList<>();
			int length = 0;
			for (int i = 0; length < bytes; i++) {
				String word = WORDS[i % WORDS.length];
				word = word.substring(0, Math.min(word.length(), bytes - length));
				chunks.add(word);
				length += word.length();
			}
			this.chunks = chunks;
		}

		String text() {
			return String.join("", this.chunks);
		}

		long at300() {
			return this.at300.get();
		}

		long started() {
			return this.started.get();
		}

		Flux<String> words() {
			List<String> chunks = this.chunks;
			int mark = Math.min(300, text().length());
			int[] sent = { 0 };
			this.at300.set(Long.MAX_VALUE);
			return Flux.fromIterable(chunks).doOnSubscribe((subscription) -> this.started.set(System.nanoTime()))
				.delayElements(Duration.ofMillis(this.paceMillis)).doOnNext((word) -> {
				sent[0] += word.length();
				if (sent[0] >= mark && this.at300.get() == Long.MAX_VALUE) {
					this.at300.set(System.nanoTime());
				}
			});
		}

		@Override
		public ChatResponse call(Prompt prompt) {
			throw new UnsupportedOperationException("the harness streams");
		}

		@Override
		public Flux<ChatResponse> stream(Prompt prompt) {
			return words().map((word) -> new ChatResponse(List.of(new Generation(new AssistantMessage(word)))));
		}

	}

	/** A guarded method that returns the model's stream. */
	static class GuardedChat {

		private final PacedModel model;

		GuardedChat(PacedModel model) {
			this.model = model;
		}

		@ModelArmorGuarded
		public Flux<String> chat(String question) {
			return this.model.words();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HarnessApplication {

		@Bean
		PacedModel chatModel(org.springframework.core.env.Environment environment) {
			return new PacedModel(environment.getRequiredProperty("harness.pace-millis", Long.class));
		}

		@Bean
		GuardedChat guardedChat(PacedModel model) {
			return new GuardedChat(model);
		}

	}

}
