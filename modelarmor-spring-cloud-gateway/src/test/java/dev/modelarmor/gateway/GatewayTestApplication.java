package dev.modelarmor.gateway;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Cloud Gateway application as users write one: its routes come from the tests' properties.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GatewayTestApplication {

	@Bean
	SimpleMeterRegistry meterRegistry() {
		return new SimpleMeterRegistry();
	}

}
