package dev.modelarmor.gateway;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A Spring Cloud Gateway application as users write one: its routes come from the tests' properties.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GatewayTestApplication {

}
