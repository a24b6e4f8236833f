package dev.modelarmor.test.autoconfigure;

import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link ModelArmorStandIn}: starts it on loopback as the bean
 * {@code modelArmorStandIn} and points the application's Model Armor client at it
 * ({@code modelarmor.endpoint}, {@code modelarmor.credentials.enabled=false}, and default project and
 * template ids where the application sets none). Imported by
 * {@link AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn}; an application may also import
 * it with {@code @ImportAutoConfiguration} to run against the stand-in locally (the samples do).
 */
@AutoConfiguration(before = ModelArmorAutoConfiguration.class)
public final class ModelArmorStandInAutoConfiguration {

	@Bean
	static StandInRegistrar modelArmorStandInRegistrar() {
		return new StandInRegistrar();
	}

}
