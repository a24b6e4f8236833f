package dev.modelarmor.autoconfigure;

import dev.modelarmor.autoconfigure.ModelArmorSettings.BoundProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Binds the properties of every area and turns them, with Spring Boot's HTTP client settings and SSL bundles
 * when the application has them, into {@link ModelArmorSettings}, once for every auto-configuration that
 * imports it, so that an invalid property fails startup whichever of them is active. A deprecated name that
 * is set gets one WARN line at startup.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ ModelArmorProperties.class, ModelArmorScreeningProperties.class,
		ModelArmorGuardProperties.class, ModelArmorSpringAiProperties.class, ModelArmorCacheProperties.class,
		ModelArmorHealthProperties.class })
class ModelArmorSettingsConfiguration {

	private static final Log logger = LogFactory.getLog(ModelArmorSettings.class);

	@Bean
	ModelArmorSettings modelArmorSettings(ModelArmorProperties client, ModelArmorScreeningProperties screening,
			ModelArmorGuardProperties guard, ModelArmorSpringAiProperties springAi, ModelArmorCacheProperties cache,
			ModelArmorHealthProperties health, Environment environment,
			ObjectProvider<HttpClientSettings> httpClientSettings, ObjectProvider<SslBundles> sslBundles) {
		BoundProperties bound = new BoundProperties(client, screening, guard, springAi, cache, health,
				BoundProperties.configured(Binder.get(environment)));
		ModelArmorSettings.deprecationWarnings(bound).forEach(logger::warn);
		return ModelArmorSettings.of(bound, httpClientSettings.getIfAvailable(HttpClientSettings::defaults),
				sslBundles.getIfAvailable());
	}

}
