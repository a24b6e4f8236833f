package dev.modelarmor.observation;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.screening.WindowSettings;
import dev.modelarmor.screening.WindowCutterAccess;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The windows of a long prompt run on the starter's executor, and each window's HTTP call is a span of the
 * guarded call's trace: the executor carries the caller's observation over (Micrometer context-propagation),
 * here with a real tracer over a WireMock Model Armor.
 */
class WindowTraceTests {

	static final String GUARDED_CALL = "chat.request";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
				ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withUserConfiguration(Tracing.class);

	@Test
	void everyWindowCallOfAGuardedCallCarriesItsTraceId() {
		answerEverythingClean(modelArmor);
		String prompt = "Plain words about the weather and nothing else. ".repeat(400);
		int windows = WindowCutterAccess.windows(prompt, WindowSettings.DEFAULTS);
		assertThat(windows).as("the prompt needs several windows").isGreaterThanOrEqualTo(3);
		this.runner.run((context) -> {
			SimpleTracer tracer = context.getBean(SimpleTracer.class);
			ObservationRegistry registry = context.getBean(ObservationRegistry.class);
			Chat chat = context.getBean(Chat.class);

			Observation.createNotStarted(GUARDED_CALL, registry).observe(() -> chat.answer(prompt));

			List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
			SimpleSpan guarded = spans.stream().filter((span) -> span.getName().equals(GUARDED_CALL)).findFirst().orElseThrow();
			List<SimpleSpan> calls = spans.stream().filter((span) -> span != guarded).toList();
			System.out.println("WindowTraceTests: guarded call traceId=" + guarded.getTraceId() + " spanId="
					+ guarded.getSpanId());
			calls.forEach((span) -> System.out.println("WindowTraceTests: Model Armor call '" + span.getName()
					+ "' traceId=" + span.getTraceId() + " parentId=" + span.getParentId()));
			// The prompt's windows, then the answer's one call.
			assertThat(calls).hasSize(windows + 1)
				.allSatisfy((span) -> assertThat(span.getTraceId()).isEqualTo(guarded.getTraceId()))
				.allSatisfy((span) -> assertThat(span.getParentId()).isEqualTo(guarded.getSpanId()));
			assertThat(context.getBean(Tracing.class).threads).as("the windows ran on the starter's executor")
				.isNotEmpty()
				.allSatisfy((thread) -> assertThat(thread).startsWith("modelarmor-"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Tracing {

		final Set<String> threads = ConcurrentHashMap.newKeySet();

		@Bean
		SimpleTracer tracer() {
			return new SimpleTracer();
		}

		@Bean
		ObservationRegistry observationRegistry(SimpleTracer tracer) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
			return registry;
		}

		/** The application's decorator, run with the starter's on every task of its executor. */
		@Bean
		TaskDecorator recordingThreads() {
			return (task) -> () -> {
				this.threads.add(Thread.currentThread().getName());
				task.run();
			};
		}

		@Bean
		Chat chat() {
			return new Chat();
		}

	}

	static class Chat {

		@ModelArmorGuarded
		public String answer(String prompt) {
			return "It will rain.";
		}

	}

}
