package dev.modelarmor.benchmarks.jmh;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.guard.ModelArmorGuarded;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What {@code @ModelArmorGuarded} costs on top of the screening itself: a guarded method against the same
 * work done by hand (screen the prompt, run the method, screen the answer), both on an in-memory
 * {@link ModelArmorOperations} that answers at once, so that the difference is the guard's own work
 * (proxy, method lookup, reading the prompt and answer, the decision, logging checks).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class GuardOverheadBenchmark {

	static final SanitizationResult NO_MATCH = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND,
			InvocationResult.SUCCESS, Map.of(), null);

	private ConfigurableApplicationContext context;

	private Chat guarded;

	private Chat plain;

	private ModelArmorOperations operations;

	@Setup(Level.Trial)
	public void start() {
		this.context = new SpringApplicationBuilder(GuardApplication.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("logging.level.root=WARN", "spring.main.banner-mode=off", "modelarmor.template-id=bench-template")
			.run();
		this.guarded = this.context.getBean(Chat.class);
		this.operations = this.context.getBean(ModelArmorOperations.class);
		this.plain = new Chat();
		if (!org.springframework.aop.support.AopUtils.isAopProxy(this.guarded)) {
			throw new IllegalStateException("the guarded bean is not proxied");
		}
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.context.close();
	}

	@Benchmark
	public String guarded() {
		return this.guarded.chat(PerCallBenchmark.PROMPT);
	}

	/** The same screening done by hand around the same method. */
	@Benchmark
	public String direct() {
		SanitizationResult prompt = this.operations.sanitizeUserPrompt(PerCallBenchmark.PROMPT);
		if (prompt.filterMatchState() == FilterMatchState.MATCH_FOUND) {
			throw new IllegalStateException("blocked");
		}
		String answer = this.plain.chat(PerCallBenchmark.PROMPT);
		SanitizationResult response = this.operations.sanitizeModelResponse(answer, PerCallBenchmark.PROMPT);
		if (response.filterMatchState() == FilterMatchState.MATCH_FOUND) {
			throw new IllegalStateException("blocked");
		}
		return answer;
	}

	/** A guarded service: screens its argument and its answer. */
	public static class Chat {

		@ModelArmorGuarded
		public String chat(String prompt) {
			return "Paris";
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ModelArmorGuardAutoConfiguration.class)
	static class GuardApplication {

		@Bean
		Chat chat() {
			return new Chat();
		}

		@Bean
		ModelArmorOperations instantModelArmor() {
			return (ModelArmorOperations) Proxy.newProxyInstance(ModelArmorOperations.class.getClassLoader(),
					new Class<?>[] { ModelArmorOperations.class }, (proxy, method, args) -> {
						if (method.getName().startsWith("sanitize")) {
							return NO_MATCH;
						}
						if (method.getName().equals("withTemplate")) {
							return proxy;
						}
						if (method.getDeclaringClass() == Object.class) {
							return switch (method.getName()) {
								case "hashCode" -> System.identityHashCode(proxy);
								case "equals" -> proxy == args[0];
								default -> "InstantModelArmor";
							};
						}
						throw new UnsupportedOperationException(method.getName());
					});
		}

	}

}
