package dev.modelarmor.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Binds {@link ModelArmorProperties} and turns them, with Spring Boot's HTTP client settings and SSL bundles
 * when the application has them, into {@link ModelArmorSettings}, once for every
 * auto-configuration that imports it, so that an invalid property fails startup whichever of them
 * is active.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ModelArmorProperties.class)
class ModelArmorSettingsConfiguration {

	@Bean
	ModelArmorSettings modelArmorSettings(ModelArmorProperties properties,
			ObjectProvider<HttpClientSettings> httpClientSettings, ObjectProvider<SslBundles> sslBundles) {
		return ModelArmorSettings.of(properties, httpClientSettings.getIfAvailable(HttpClientSettings::defaults),
				sslBundles.getIfAvailable());
	}

}
