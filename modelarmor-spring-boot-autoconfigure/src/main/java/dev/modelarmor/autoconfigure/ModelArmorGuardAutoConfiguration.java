package dev.modelarmor.autoconfigure;

import dev.modelarmor.guard.ModelArmorGuardPostProcessor;
import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.web.ModelArmorExceptionHandler;
import dev.modelarmor.web.ModelArmorWebFluxExceptionHandler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of {@link ModelArmorGuarded @ModelArmorGuarded}: a static advising post-processor
 * (no AspectJ weaver needed) and, in a Spring MVC or WebFlux application, problem-detail rendering of
 * blocked calls.
 */
@AutoConfiguration(after = ModelArmorAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorScreeningConfiguration.class })
@EnableConfigurationProperties({ ModelArmorProperties.class, ModelArmorGuardProperties.class,
		ModelArmorScreeningProperties.class })
public final class ModelArmorGuardAutoConfiguration {

	@Bean
	@ConditionalOnBooleanProperty(name = "modelarmor.guard.enabled", matchIfMissing = true)
	@ConditionalOnMissingBean
	static ModelArmorGuardPostProcessor modelArmorGuardPostProcessor(Environment environment,
			ObjectProvider<ModelArmorScreening> screening, ObjectProvider<ModelArmorProperties> properties) {
		// Looked up once, at the first guarded call: resolving a bean through its provider at every call
		// was most of what the guard cost. The bound properties rather than the settings: a post-processor that
		// asks while beans are post-processed must not make the settings (and fail their report) there.
		ModelArmorGuardPostProcessor postProcessor = new ModelArmorGuardPostProcessor(
				SingletonSupplier.of(screening::getObject), () -> properties.getObject().getTemplateId());
		postProcessor.setProxyTargetClass(environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true));
		return postProcessor;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(name = "org.springframework.web.servlet.DispatcherServlet")
	static class ProblemDetailsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorExceptionHandler modelArmorExceptionHandler(ModelArmorSettings settings) {
			// a call refused while the breaker is open can be tried again once it lets calls through
			return new ModelArmorExceptionHandler(settings.circuitBreaker().waitInOpenState());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.reactive.DispatcherHandler")
	static class ReactiveProblemDetailsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorWebFluxExceptionHandler modelArmorWebFluxExceptionHandler(ModelArmorSettings settings) {
			// a call refused while the breaker is open can be tried again once it lets calls through
			return new ModelArmorWebFluxExceptionHandler(settings.circuitBreaker().waitInOpenState());
		}

	}

}
