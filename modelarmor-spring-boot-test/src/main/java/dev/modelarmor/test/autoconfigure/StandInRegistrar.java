package dev.modelarmor.test.autoconfigure;

import dev.modelarmor.test.ModelArmorStandIn;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Starts the {@link ModelArmorStandIn}, registers it as the bean {@value #BEAN_NAME} (closed with the
 * context), and points the application's Model Armor client at it. A bean factory post-processor, so that
 * the properties are in place before any bean is created, a placeholder resolved or a configuration
 * property bound, and the stand-in stops even when the context fails to start.
 */
final class StandInRegistrar implements BeanFactoryPostProcessor, EnvironmentAware, PriorityOrdered {

	static final String BEAN_NAME = "modelArmorStandIn";

	private @Nullable ConfigurableEnvironment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = (environment instanceof ConfigurableEnvironment configurable) ? configurable : null;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (beanFactory.containsSingleton(BEAN_NAME)) {
			return;
		}
		if (this.environment == null) {
			throw new IllegalStateException("The Model Armor stand-in needs a ConfigurableEnvironment to point the "
					+ "client at it");
		}
		ModelArmorStandIn standIn = ModelArmorStandIn.start();
		beanFactory.registerSingleton(BEAN_NAME, standIn);
		if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
			registry.registerDisposableBean(BEAN_NAME, standIn::close);
		}
		TestClientProperties.pointAt(this.environment, standIn.url());
	}

	@Override
	public int getOrder() {
		// Before the placeholder configurer, so that ${modelarmor.endpoint} resolves to the stand-in.
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
