package dev.modelarmor.autoconfigure;

import dev.modelarmor.auth.GoogleCredentialsLoader;
import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.internal.ModelArmorThreads;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The credentials and project of the auto-configured client. Precedence, first match wins:
 * {@code modelarmor.credentials.enabled=false} (no Authorization header), the application's
 * {@link ModelArmorCredentialsProvider} bean, {@code modelarmor.credentials.location}, spring-cloud-gcp's
 * credentials, Application Default Credentials. Imported by {@link ModelArmorAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
class ModelArmorCredentialsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ModelArmorCredentialsProvider modelArmorCredentialsProvider(ModelArmorProperties properties,
			ConfigurableListableBeanFactory beanFactory) {
		return new DefaultModelArmorCredentialsProvider(properties.getCredentials().getLocation(),
				springCloudGcp(beanFactory), new GoogleCredentialsLoader());
	}

	@Bean
	@ConditionalOnMissingBean(ModelArmorOperations.class)
	ModelArmorAuthorization modelArmorAuthorization(ModelArmorProperties properties, ModelArmorSettings settings,
			ModelArmorCredentialsProvider modelArmorCredentialsProvider, Environment environment,
			ConfigurableListableBeanFactory beanFactory, ModelArmorStartupReport modelArmorStartupReport,
			ModelArmorThreads modelArmorThreads) {
		return ModelArmorAuthorization.resolve(properties, settings.timeouts().read(), modelArmorCredentialsProvider,
				environment, springCloudGcp(beanFactory)::projectId, modelArmorStartupReport::guardedMethodProblems,
				modelArmorThreads.virtual());
	}

	private static SpringCloudGcp springCloudGcp(ConfigurableListableBeanFactory beanFactory) {
		return new SpringCloudGcp(beanFactory, beanFactory.getBeanClassLoader());
	}

}
