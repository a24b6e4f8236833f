package dev.modelarmor.autoconfigure;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Binds {@link ModelArmorProperties} and turns them into {@link ModelArmorSettings}, once for every
 * auto-configuration that imports it, so that an invalid property fails startup whichever of them
 * is active.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ModelArmorProperties.class)
class ModelArmorSettingsConfiguration {

	@Bean
	ModelArmorSettings modelArmorSettings(ModelArmorProperties properties) {
		return ModelArmorSettings.of(properties);
	}

}
