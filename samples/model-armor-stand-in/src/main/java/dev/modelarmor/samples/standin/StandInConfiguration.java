package dev.modelarmor.samples.standin;

import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.autoconfigure.ModelArmorStandInAutoConfiguration;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;

/**
 * Runs the sample against a local Model Armor stand-in in profile {@code local}: the
 * {@link ModelArmorStandIn} of {@code modelarmor-spring-boot-test} (the same one the samples' tests use)
 * on a free loopback port, with the application's client pointed at it and credentials off, plus
 * {@link StandInControls} ({@code /stand-in/faults}, {@code /stand-in/stats}) and
 * {@link StandInProperties} ({@code stand-in.*}). A sample imports it with
 * {@code @Import(StandInConfiguration.class)}. In any other profile nothing of it exists.
 */
@Configuration(proxyBeanMethods = false)
@Profile("local")
@ImportAutoConfiguration(ModelArmorStandInAutoConfiguration.class)
@EnableConfigurationProperties(StandInProperties.class)
@Import(StandInControls.class)
public class StandInConfiguration {

}
