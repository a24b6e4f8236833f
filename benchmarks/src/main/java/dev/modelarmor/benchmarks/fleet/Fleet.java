package dev.modelarmor.benchmarks.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.resilience.ModelArmorCircuitBreaker;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Instances of one application, each its own Spring Boot application context (its own client, retry
 * budget and circuit breaker, as separate processes have them), all pointed at one Model Armor endpoint.
 */
final class Fleet implements AutoCloseable {

	/** The project every instance names: instances that share a Redis share the quota of this project. */
	static final String PROJECT = "fleet-harness";

	private final List<ConfigurableApplicationContext> instances;

	private Fleet(List<ConfigurableApplicationContext> instances) {
		this.instances = instances;
	}

	/**
	 * Starts the instances.
	 * @param size how many
	 * @param application the configuration of each ({@link FleetApplication} or its caching variant)
	 * @param endpoint the Model Armor every instance calls
	 * @param deadline the retry deadline of each call
	 * @param properties the configuration under test, on top of what every instance has
	 */
	static Fleet start(int size, Class<?> application, String endpoint, Duration deadline, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off", "logging.level.root=WARN",
				// one WARN line per call failed closed: written to the console under load, they would add the
				// harness's own cost to the calls
				"logging.level.dev.modelarmor=ERROR",
				// but the line that says the quota limiter fell back to an in-process bucket, rare, shown
				"logging.level.dev.modelarmor.resilience.RedisQuotaBucket=WARN", "modelarmor.project-id=" + PROJECT,
				"modelarmor.template-id=fleet-template", "modelarmor.credentials.enabled=false",
				"modelarmor.template-check.enabled=false", "modelarmor.endpoint=" + endpoint,
				"modelarmor.retry.deadline=" + deadline.toSeconds() + "s"));
		all.addAll(List.of(properties));
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try {
			for (int i = 0; i < size; i++) {
				instances.add(new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
					.logStartupInfo(false)
					.properties(all.toArray(String[]::new))
					.run());
			}
		}
		catch (RuntimeException ex) {
			instances.forEach(ConfigurableApplicationContext::close);
			throw ex;
		}
		return new Fleet(instances);
	}

	int size() {
		return this.instances.size();
	}

	Questions questions(int instance) {
		return this.instances.get(instance).getBean(Questions.class);
	}

	String breakerState(int instance) {
		return this.instances.get(instance).getBean(ModelArmorCircuitBreaker.class).state();
	}

	String breakerState(int instance, String location) {
		return this.instances.get(instance).getBean(ModelArmorCircuitBreaker.class).state(location);
	}

	dev.modelarmor.client.ModelArmorOperations operations(int instance) {
		return this.instances.get(instance).getBean(dev.modelarmor.client.ModelArmorOperations.class);
	}

	@Override
	public void close() {
		this.instances.forEach(ConfigurableApplicationContext::close);
	}

}
