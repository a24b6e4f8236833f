package dev.modelarmor.benchmarks.latency;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.test.ModelArmorStandIn;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * What guarding costs a user, end to end: the real starter (a {@code @ModelArmorGuarded} method, Spring
 * AI's auto-configured {@code ChatClient} with the advisor, its streams in each mode) against the test
 * kit's {@link ModelArmorStandIn} behind a {@link DelayingProxy} that plays a remote Model Armor (a
 * log-normal delay: a median and a tail), and a {@link TimedModel} with its own latency and token rate.
 * Every path runs in the same rounds, interleaved, with its unguarded baseline; a path's added latency is
 * each of its times minus the median of its baseline's. Prints a markdown table.
 *
 * <pre>java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.latency.LatencyHarness \
 *     [call-rounds=40] [stream-rounds=5] [model-ms=600] [model-armor-median-ms=60] [model-armor-sigma=0.3] \
 *     [tokens-per-second=50] [stream-tokens=100]</pre>
 */
public final class LatencyHarness {

	static final String QUESTION = "When does the train to Lyon leave?";

	private LatencyHarness() {
	}

	public static void main(String[] args) throws Exception {
		int callRounds = intArg(args, 0, 40);
		int streamRounds = intArg(args, 1, 5);
		long modelMillis = intArg(args, 2, 600);
		double medianMillis = (args.length > 3) ? Double.parseDouble(args[3]) : 60;
		double sigma = (args.length > 4) ? Double.parseDouble(args[4]) : 0.3;
		int tokensPerSecond = intArg(args, 5, 50);
		int streamTokens = intArg(args, 6, 100);
		// Without it the JDK servers' delayed acknowledgements add about 40 ms to every call on loopback.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start();
				DelayingProxy modelArmor = new DelayingProxy(standIn.url(), medianMillis, sigma)) {
			String[] model = { "harness.model-ms=" + modelMillis, "harness.tokens-per-second=" + tokensPerSecond,
					"harness.stream-tokens=" + streamTokens };
			Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
			contexts.put("plain", start(modelArmor, model, "modelarmor.spring-ai.advisor.enabled=false"));
			for (String mode : List.of("segmented", "buffered", "per-chunk")) {
				contexts.put(mode, start(modelArmor, model, "modelarmor.spring-ai.advisor.enabled=true",
						"modelarmor.spring-ai.advisor.stream-mode=" + mode));
				contexts.put(mode + " parallel", start(modelArmor, model, "modelarmor.spring-ai.advisor.enabled=true",
						"modelarmor.spring-ai.advisor.stream-mode=" + mode,
						"modelarmor.spring-ai.advisor.parallel-prompt-screening=true"));
			}
			try {
				Map<String, Path> calls = new LinkedHashMap<>();
				Questions plain = contexts.get("plain").getBean(Questions.class);
				calls.put("baseline: the model alone", new Path(null, call(plain::unguarded)));
				calls.put("`@ModelArmorGuarded`", new Path("baseline: the model alone", call(plain::guarded)));
				calls.put("`@ModelArmorGuarded(sideEffectFree = true)`",
						new Path("baseline: the model alone", call(plain::sideEffectFree)));
				calls.put("baseline: ChatClient call, no advisor", new Path(null, call(client(contexts, "plain"))));
				calls.put("advisor, call", new Path("baseline: ChatClient call, no advisor",
						call(client(contexts, "segmented"))));
				calls.put("advisor, call, parallel prompt screening", new Path("baseline: ChatClient call, no advisor",
						call(client(contexts, "segmented parallel"))));
				Map<String, Path> streams = new LinkedHashMap<>();
				streams.put("baseline: ChatClient stream, no advisor", new Path(null, stream(client(contexts, "plain"))));
				for (String name : contexts.keySet()) {
					if (!name.equals("plain")) {
						streams.put("advisor, stream " + name, new Path("baseline: ChatClient stream, no advisor",
								stream(client(contexts, name))));
					}
				}
				System.out.printf(Locale.ROOT, "Model Armor: log-normal delay, median %.0f ms, sigma %.2f; model: %d ms "
						+ "to answer a call or to its first streamed token, then %d tokens/s, %d tokens per stream%n%n",
						medianMillis, sigma, modelMillis, tokensPerSecond, streamTokens);
				report(measure(modelArmor, calls, callRounds), calls, callRounds);
				System.out.println();
				report(measure(modelArmor, streams, streamRounds), streams, streamRounds);
			}
			finally {
				contexts.values().forEach(ConfigurableApplicationContext::close);
			}
		}
	}

	private static int intArg(String[] args, int index, int fallback) {
		return (args.length > index) ? Integer.parseInt(args[index]) : fallback;
	}

	private static ConfigurableApplicationContext start(DelayingProxy modelArmor, String[] model, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off", "logging.level.root=WARN",
				"modelarmor.project-id=bench", "modelarmor.template-id=bench-template",
				"modelarmor.credentials.enabled=false", "modelarmor.endpoint=" + modelArmor.url()));
		all.addAll(List.of(model));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(HarnessApplication.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties(all.toArray(String[]::new))
			.run();
	}

	private static ChatClient client(Map<String, ConfigurableApplicationContext> contexts, String name) {
		return contexts.get(name).getBean(ChatClient.Builder.class).build();
	}

	private static Map<String, List<Sample>> measure(DelayingProxy modelArmor, Map<String, Path> paths, int rounds) {
		Map<String, List<Sample>> samples = new LinkedHashMap<>();
		paths.keySet().forEach((name) -> samples.put(name, new ArrayList<>()));
		for (int round = -2; round < rounds; round++) { // two rounds of warm-up
			for (Map.Entry<String, Path> path : paths.entrySet()) {
				modelArmor.resetRequests();
				Timing timing = path.getValue().run().get();
				if (round >= 0) {
					samples.get(path.getKey()).add(new Sample(timing.totalMillis(), timing.firstMillis(), modelArmor.requests()));
				}
			}
		}
		return samples;
	}

	private static Supplier<Timing> call(java.util.function.Function<String, String> guarded) {
		return () -> {
			long start = System.nanoTime();
			guarded.apply(QUESTION);
			double total = (System.nanoTime() - start) / 1e6;
			return new Timing(total, total);
		};
	}

	private static Supplier<Timing> call(ChatClient client) {
		return call((question) -> client.prompt().user(question).call().content());
	}

	private static Supplier<Timing> stream(ChatClient client) {
		return () -> {
			long start = System.nanoTime();
			AtomicLong first = new AtomicLong(-1);
			client.prompt()
				.user(QUESTION)
				.stream()
				.content()
				.doOnNext((text) -> first.compareAndSet(-1, System.nanoTime()))
				.blockLast(Duration.ofMinutes(5));
			long end = System.nanoTime();
			return new Timing((end - start) / 1e6, (first.get() - start) / 1e6);
		};
	}

	private static void report(Map<String, List<Sample>> samples, Map<String, Path> paths, int rounds) {
		System.out.printf(Locale.ROOT, "%d rounds%n", rounds);
		System.out.println("| path | end to end ms (median) | added ms (median) | added ms (p99) | first token ms (median) "
				+ "| Model Armor calls per request |");
		System.out.println("|---|---:|---:|---:|---:|---:|");
		for (Map.Entry<String, List<Sample>> entry : samples.entrySet()) {
			List<Sample> list = entry.getValue();
			String baseline = paths.get(entry.getKey()).baseline();
			double total = percentile(values(list, Sample::totalMillis), 50);
			double first = percentile(values(list, Sample::firstMillis), 50);
			String calls = String.format(Locale.ROOT, "%.0f", percentile(values(list, (s) -> s.calls()), 50));
			if (baseline == null) {
				System.out.printf(Locale.ROOT, "| %s | %.0f | – | – | %.0f | %s |%n", entry.getKey(), total, first, calls);
				continue;
			}
			double base = percentile(values(samples.get(baseline), Sample::totalMillis), 50);
			List<Double> added = values(list, (s) -> s.totalMillis() - base);
			System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %s |%n", entry.getKey(), total,
					percentile(added, 50), percentile(added, 99), first, calls);
		}
	}

	private static List<Double> values(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> value) {
		List<Double> values = new ArrayList<>();
		samples.forEach((sample) -> values.add(value.applyAsDouble(sample)));
		Collections.sort(values);
		return values;
	}

	/** Nearest rank: with fewer than 100 samples, p99 is the largest. */
	private static double percentile(List<Double> sorted, int percentile) {
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

	private record Path(@Nullable String baseline, Supplier<Timing> run) {
	}

	private record Timing(double totalMillis, double firstMillis) {
	}

	private record Sample(double totalMillis, double firstMillis, int calls) {
	}

	/**
	 * The model asked through a guarded method, a side-effect-free one, and an unguarded one (the
	 * baseline).
	 */
	public static class Questions {

		private final ChatModel model;

		public Questions(ChatModel model) {
			this.model = model;
		}

		@ModelArmorGuarded
		public String guarded(String question) {
			return this.model.call(question);
		}

		@ModelArmorGuarded(sideEffectFree = true)
		public String sideEffectFree(String question) {
			return this.model.call(question);
		}

		public String unguarded(String question) {
			return this.model.call(question);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HarnessApplication {

		@Bean
		TimedModel chatModel(Environment environment) {
			return new TimedModel(Duration.ofMillis(environment.getRequiredProperty("harness.model-ms", Long.class)),
					environment.getRequiredProperty("harness.tokens-per-second", Integer.class),
					environment.getRequiredProperty("harness.stream-tokens", Integer.class));
		}

		@Bean
		Questions questions(TimedModel chatModel) {
			return new Questions(chatModel);
		}

	}

}
