package dev.modelarmor.benchmarks.streams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

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
 * The stream modes of the Spring AI advisor compared in one run: Spring AI's auto-configured
 * {@code ChatClient}, with the advisor in {@code buffered}, {@code per-chunk} and {@code segmented} mode
 * and without it (the baseline), streams a 2,000-token answer from a model that sends one token per chunk
 * at a steady pace, while the test kit's {@link ModelArmorStandIn} plays Model Armor over HTTP on loopback.
 * For each mode: the Model Armor calls of one answer, the delay before the first emitted token and before
 * the last, medians over interleaved rounds; then the same with every Model Armor answer delayed, as a
 * remote Model Armor is.
 *
 * <pre>java -cp benchmarks/target/modelarmor-benchmarks.jar dev.modelarmor.benchmarks.streams.StreamModesHarness [rounds] [token-pace-ms] [model-armor-delay-ms]</pre>
 */
public final class StreamModesHarness {

	static final int TOKENS = 2_000;

	private static final String[] WORDS = { "The ", "train ", "to ", "Lyon ", "leaves ", "from ", "Gare ", "de ",
			"Lyon ", "every ", "hour, ", "and ", "the ", "trip ", "takes ", "two ", "hours.\n" };

	private StreamModesHarness() {
	}

	public static void main(String[] args) {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		long paceMillis = (args.length > 1) ? Long.parseLong(args[1]) : 2;
		long delayMillis = (args.length > 2) ? Long.parseLong(args[2]) : 20;
		// Without it the JDK server's delayed acknowledgements add about 40 ms to every call on loopback.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start()) {
			Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
			contexts.put("none (baseline)", start(standIn, false, "buffered", paceMillis));
			for (String mode : List.of("buffered", "per-chunk", "segmented")) {
				contexts.put(mode, start(standIn, true, mode, paceMillis));
			}
			try {
				System.out.printf(Locale.ROOT, "%d tokens, one per chunk, every %d ms; stand-in on loopback%n", TOKENS,
						paceMillis);
				report(measure(standIn, contexts, rounds, 0));
				System.out.printf(Locale.ROOT, "%nthe same, every Model Armor answer delayed by %d ms (one round)%n",
						delayMillis);
				report(measure(standIn, contexts, 1, delayMillis));
			}
			finally {
				contexts.values().forEach(ConfigurableApplicationContext::close);
			}
		}
	}

	private static ConfigurableApplicationContext start(ModelArmorStandIn standIn, boolean advisor, String mode,
			long paceMillis) {
		return new SpringApplicationBuilder(HarnessApplication.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.main.banner-mode=off", "logging.level.root=WARN", "modelarmor.project-id=bench",
					"modelarmor.template-id=bench-template", "modelarmor.credentials.enabled=false",
					"modelarmor.endpoint=" + standIn.url(), "modelarmor.spring-ai.advisor.enabled=" + advisor,
					"modelarmor.spring-ai.advisor.stream-mode=" + mode, "harness.pace-millis=" + paceMillis)
			.run();
	}

	private static Map<String, List<Run>> measure(ModelArmorStandIn standIn,
			Map<String, ConfigurableApplicationContext> contexts, int rounds, long delayMillis) {
		Map<String, List<Run>> runs = new LinkedHashMap<>();
		contexts.keySet().forEach((name) -> runs.put(name, new ArrayList<>()));
		for (int round = -1; round < rounds; round++) { // one round of warm-up
			for (Map.Entry<String, ConfigurableApplicationContext> entry : contexts.entrySet()) {
				standIn.reset();
				if (delayMillis > 0) {
					standIn.delay(Duration.ofMillis(delayMillis)).always();
				}
				Run run = stream(entry.getValue().getBean(ChatClient.Builder.class).build());
				int calls = standIn.receivedResponses().size();
				if (round >= 0) {
					runs.get(entry.getKey()).add(new Run(run.firstMillis(), run.lastMillis(), calls, run.text()));
				}
			}
		}
		standIn.reset();
		return runs;
	}

	private static Run stream(ChatClient client) {
		long start = System.nanoTime();
		AtomicLong first = new AtomicLong(-1);
		List<String> texts = client.prompt()
			.user("When does the train to Lyon leave?")
			.stream()
			.content()
			.doOnNext((text) -> first.compareAndSet(-1, System.nanoTime()))
			.collectList()
			.block(Duration.ofMinutes(5));
		long end = System.nanoTime();
		return new Run((first.get() - start) / 1e6, (end - start) / 1e6, 0, String.join("", Objects.requireNonNull(texts)));
	}

	private static void report(Map<String, List<Run>> runs) {
		double baseFirst = median(runs.get("none (baseline)"), Run::firstMillis);
		double baseLast = median(runs.get("none (baseline)"), Run::lastMillis);
		String expected = runs.get("none (baseline)").get(0).text();
		System.out.println("| stream mode | Model Armor calls (answer) | first token ms | × baseline | last token ms | × baseline |");
		System.out.println("|---|---:|---:|---:|---:|---:|");
		for (Map.Entry<String, List<Run>> entry : runs.entrySet()) {
			List<Run> list = entry.getValue();
			for (Run run : list) {
				if (!run.text().equals(expected)) {
					throw new IllegalStateException(entry.getKey() + " emitted another text than the model's");
				}
			}
			double first = median(list, Run::firstMillis);
			double last = median(list, Run::lastMillis);
			System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %.2f | %.0f | %.2f |%n", entry.getKey(), list.get(0).calls(),
					first, first / baseFirst, last, last / baseLast);
		}
	}

	private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> value) {
		List<Double> values = new ArrayList<>();
		runs.forEach((run) -> values.add(value.applyAsDouble(run)));
		Collections.sort(values);
		int n = values.size();
		return (n % 2 == 1) ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
	}

	private record Run(double firstMillis, double lastMillis, int calls, String text) {
	}

	/**
	 * A model that streams {@value #TOKENS} tokens, one per chunk, at a steady pace.
	 */
	static final class PacedModel implements ChatModel {

		private final long paceMillis;

		PacedModel(long paceMillis) {
			this.paceMillis = paceMillis;
		}

		@Override
		public ChatResponse call(Prompt prompt) {
			throw new UnsupportedOperationException("the harness streams");
		}

		@Override
		public Flux<ChatResponse> stream(Prompt prompt) {
			Flux<Integer> tokens = Flux.range(0, TOKENS);
			if (this.paceMillis > 0) {
				tokens = tokens.delayElements(Duration.ofMillis(this.paceMillis));
			}
			return tokens.map((i) -> new ChatResponse(List.of(new Generation(new AssistantMessage(WORDS[i % WORDS.length])))));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HarnessApplication {

		@Bean
		PacedModel chatModel(org.springframework.core.env.Environment environment) {
			return new PacedModel(environment.getRequiredProperty("harness.pace-millis", Long.class));
		}

	}

}
