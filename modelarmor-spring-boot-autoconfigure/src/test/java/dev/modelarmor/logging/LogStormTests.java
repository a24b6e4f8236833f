package dev.modelarmor.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorResilienceAutoConfiguration;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refusal storm in real time, as an operator would meet it: the quota limiter on with a quota far below the
 * load and 4 threads calling as fast as they can, in a real application whose console the test reads. The
 * console gets the first 10 lines of each second in full and one line a second with the count left out; those
 * add up to every refused call, as the meters count them; no line holds the prompt.
 */
@ExtendWith(OutputCaptureExtension.class)
class LogStormTests {

	private static final String PROMPT = "STORM-PROMPT-7719 what is the launch code";

	private static final Pattern LEFT_OUT = Pattern
		.compile("Model Armor left out log lines of a second .*: lines=\"not_screened\" left_out=(\\d+) ");

	private static final String FULL_LINE = "Model Armor could not screen a call, blocking it (fail-closed)";

	private static final long SECOND = 1_000_000_000L;

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void aRefusalStormWritesTenLinesASecondAndOneCountASecond(CapturedOutput output) throws Exception {
		answerEverythingClean(modelArmor);
		AtomicInteger refused = new AtomicInteger();
		AtomicLong first = new AtomicLong();
		AtomicLong last = new AtomicLong();
		AtomicReference<Double> counted = new AtomicReference<>();
		// a context without Spring Boot's logging system: the console stays as the test run set it up
		new ApplicationContextRunner().withUserConfiguration(Application.class)
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("modelarmor.template-check.enabled=false", "modelarmor.quota.enabled=true",
					"modelarmor.quota.queries-per-minute=2", "modelarmor.quota.max-wait=0s")
			.run((context) -> {
				ModelArmorScreening screening = context.getBean(ModelArmorScreening.class);
				ExecutorService threads = Executors.newFixedThreadPool(4);
				first.set(System.nanoTime());
				try {
					List<CompletableFuture<Void>> callers = new ArrayList<>();
					for (int thread = 0; thread < 4; thread++) {
						callers.add(CompletableFuture.runAsync(() -> {
							for (int call = 0; call < 1_500; call++) {
								String name = Thread.currentThread().getName() + " " + call;
								if (screen(screening, name) instanceof ScreeningDecision.NotScreened) {
									refused.incrementAndGet();
								}
							}
						}, threads));
					}
					CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
				}
				finally {
					threads.shutdownNow();
				}
				// one more refusal in a later second writes the count of the storm's last second
				Thread.sleep(1_050);
				last.set(System.nanoTime());
				if (screen(screening, "last") instanceof ScreeningDecision.NotScreened) {
					refused.incrementAndGet();
				}
				counted.set(context.getBean(MeterRegistry.class)
					.get(MicrometerScreeningObserver.SCREENINGS)
					.tag("result", "failed_closed")
					.counter()
					.count());
			});
		List<String> lines = output.getOut().lines().toList();
		long full = lines.stream().filter((line) -> line.contains(FULL_LINE)).count();
		List<Long> leftOut = new ArrayList<>();
		for (String line : lines) {
			Matcher matcher = LEFT_OUT.matcher(line);
			if (matcher.find()) {
				leftOut.add(Long.parseLong(matcher.group(1)));
			}
		}
		long seconds = Math.floorDiv(last.get(), SECOND) - Math.floorDiv(first.get(), SECOND) + 1;
		assertThat(refused.get()).isGreaterThan(5_990);
		assertThat(counted.get()).isEqualTo((double) refused.get());
		assertThat(full).isPositive().isLessThanOrEqualTo(10 * seconds);
		assertThat(leftOut).isNotEmpty().hasSizeLessThanOrEqualTo((int) seconds);
		assertThat(full + leftOut.stream().mapToLong(Long::longValue).sum()).isEqualTo(refused.get());
		assertThat(output.getAll()).doesNotContain("STORM-PROMPT").doesNotContain("launch code");
	}

	@Test
	void logLinesPerSecondOutOfItsRangeFailsStartupNamingIt() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorGuardAutoConfiguration.class))
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("modelarmor.template-check.enabled=false");
		for (String value : List.of("0", "-1", "10001")) {
			runner.withPropertyValues("modelarmor.screening.log-lines-per-second=" + value)
				.run((context) -> assertThat(context.getStartupFailure())
					.hasStackTraceContaining("modelarmor.screening.log-lines-per-second"));
		}
		runner.withPropertyValues("modelarmor.screening.log-lines-per-second=50")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	/** Each prompt of its own: a verdict cache must not answer the storm. */
	private static ScreeningDecision screen(ModelArmorScreening screening, String call) {
		return screening.screen(ScreeningRequest.prompt("Chat.ask", PROMPT + " " + call));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
			ModelArmorObservationAutoConfiguration.class, ModelArmorResilienceAutoConfiguration.class })
	static class Application {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
