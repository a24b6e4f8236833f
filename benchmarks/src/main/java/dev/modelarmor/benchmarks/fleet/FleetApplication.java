package dev.modelarmor.benchmarks.fleet;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One instance of the fleet: the starter and Spring Boot's auto-configuration (Redis among them, when
 * {@code spring.data.redis.*} points at one), and the guarded {@link Questions}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class FleetApplication {

	@Bean
	Questions questions() {
		return new Questions();
	}

}
