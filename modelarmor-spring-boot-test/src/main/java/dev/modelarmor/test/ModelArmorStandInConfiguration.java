package dev.modelarmor.test;

import dev.modelarmor.test.autoconfigure.ModelArmorStandInAutoConfiguration;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.TestConfiguration;

/**
 * Runs one's own application against a {@link ModelArmorStandIn} (a stand-in, <b>not Model Armor</b>) on a
 * free loopback port, with no Google account and no network: Spring Boot's "test application" pattern, in
 * {@code src/test/java}, started with {@code mvn spring-boot:test-run} or from the IDE:
 *
 * <pre>{@code
 * public class TestChatApplication {
 *
 *     public static void main(String[] args) {
 *         SpringApplication.from(ChatApplication::main).with(ModelArmorStandInConfiguration.class).run(args);
 *     }
 *
 * }
 * }</pre>
 *
 * <p>The application's client is pointed at the stand-in as with
 * {@link AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn}: {@code modelarmor.endpoint} is the
 * stand-in's URL, {@code modelarmor.credentials.enabled} is {@code false}, and {@code modelarmor.project-id}
 * and {@code modelarmor.template-id} default to {@code stand-in-project} and {@code stand-in-template}. Waits
 * between retries are real. The stand-in is the bean {@code modelArmorStandIn}, stopped with the context.
 */
@TestConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration(ModelArmorStandInAutoConfiguration.class)
public class ModelArmorStandInConfiguration {

}
