package dev.modelarmor.benchmarks.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the starter's auto-configuration adds to an application context's start: the same
 * {@code @SpringBootApplication} (no web server) started and closed with Model Armor's auto-configurations
 * excluded and included (credentials off, so no key file is read).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class StartupBenchmark {

	static final String EXCLUDE_MODEL_ARMOR = "spring.autoconfigure.exclude="
			+ "dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration,"
			+ "dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration,"
			+ "dev.modelarmor.autoconfigure.ModelArmorHealthAutoConfiguration,"
			+ "dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration";

	@Param({ "without", "with" })
	public String modelArmor;

	@Benchmark
	public int startAndClose() {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.main.banner-mode=off", "logging.level.root=WARN", "modelarmor.project-id=p",
					"modelarmor.location=us-central1", "modelarmor.template-id=t", "modelarmor.credentials.enabled=false");
		if ("without".equals(this.modelArmor)) {
			builder.properties(EXCLUDE_MODEL_ARMOR);
		}
		try (ConfigurableApplicationContext context = builder.run()) {
			return context.getBeanDefinitionCount();
		}
	}

	@SpringBootApplication
	static class App {

	}

}
