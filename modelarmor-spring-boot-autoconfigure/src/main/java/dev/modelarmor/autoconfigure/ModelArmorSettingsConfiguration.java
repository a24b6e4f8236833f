package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.modelarmor.autoconfigure.ModelArmorSettings.BoundProperties;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.client.ModelArmorConfigurationException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Binds the properties of every area and turns them, with Spring Boot's HTTP client settings and SSL bundles
 * when the application has them, into {@link ModelArmorSettings}, once for every auto-configuration that
 * imports it, so that an invalid property fails startup whichever of them is active, and the
 * {@link TemplatesInUse} that the template check, the meters and health read. A {@code modelarmor.*}
 * key that no property has fails it too ({@code modelarmor.unknown-properties}), every problem in one report.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ ModelArmorProperties.class, ModelArmorScreeningProperties.class,
		ModelArmorCacheProperties.class, ModelArmorHealthProperties.class })
class ModelArmorSettingsConfiguration {

	private static final Log logger = LogFactory.getLog(ModelArmorSettings.class);

	@Bean
	static ModelArmorStartupReport modelArmorStartupReport(ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		return new ModelArmorStartupReport(beanFactory, environment);
	}

	@Bean
	ModelArmorSettings modelArmorSettings(ModelArmorProperties client, ModelArmorScreeningProperties screening,
			ModelArmorCacheProperties cache, ModelArmorHealthProperties health, Environment environment,
			ObjectProvider<HttpClientSettings> httpClientSettings, ObjectProvider<SslBundles> sslBundles,
			ModelArmorStartupReport modelArmorStartupReport) {
		BoundProperties bound = new BoundProperties(client, screening, cache, health);
		List<ModelArmorConfigurationException> problems = new ArrayList<>(unknownKeys(client, environment));
		ModelArmorSettings.Checked checked = ModelArmorSettings.check(bound,
				httpClientSettings.getIfAvailable(HttpClientSettings::defaults), sslBundles.getIfAvailable());
		problems.addAll(InvalidPropertyValue.asConfigured(checked.problems(), environment));
		if (!problems.isEmpty()) {
			problems.addAll(modelArmorStartupReport.authorizationProblems(client));
			problems.addAll(modelArmorStartupReport.guardedMethodProblems());
		}
		ModelArmorConfigurationProblems.throwIfAny(problems);
		return Objects.requireNonNull(checked.settings(), "no problems");
	}

	/**
	 * The templates in use: the client's own and those every area that screens names, each area publishing
	 * its own as a {@link NamedTemplates} bean.
	 */
	@Bean
	TemplatesInUse modelArmorTemplatesInUse(ModelArmorSettings modelArmorSettings,
			ObjectProvider<NamedTemplates> namedTemplates) {
		return new TemplatesInUse(modelArmorSettings.templateId(), namedTemplates.orderedStream().toList());
	}

	/** The unknown modelarmor.* keys: problems for the report, or WARN lines, as the application chose. */
	private static List<ModelArmorConfigurationException> unknownKeys(ModelArmorProperties client,
			Environment environment) {
		UnknownPropertiesAction action = client.getUnknownProperties();
		if (action == UnknownPropertiesAction.IGNORE) {
			return List.of();
		}
		List<UnknownProperties.Unknown> unknown = UnknownProperties
			.fromMetadata(ModelArmorSettingsConfiguration.class.getClassLoader())
			.find(environment);
		if (action == UnknownPropertiesAction.WARN) {
			unknown.forEach((key) -> logger.warn(key.warning()));
			return List.of();
		}
		return unknown.stream().map(UnknownProperties.Unknown::problem).toList();
	}

}
