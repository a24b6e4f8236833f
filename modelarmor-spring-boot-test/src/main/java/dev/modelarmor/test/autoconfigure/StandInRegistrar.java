package dev.modelarmor.test.autoconfigure;

import java.util.List;

import dev.modelarmor.test.ModelArmorStandIn;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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

	private static final Log logger = LogFactory.getLog(ModelArmorStandIn.class);

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
		logger.info(startedLine(standIn.url(), TestClientProperties.defaultsInUse(this.environment)));
	}

	/**
	 * The one line that says the application talks to a stand-in, where it listens, and which ids it made
	 * up: a project id the application never set would otherwise pass unseen until the first run against
	 * Model Armor.
	 */
	static String startedLine(String url, List<String> defaults) {
		return "Model Armor stand-in (not Model Armor: simple local rules) listening on " + url
				+ "; the Model Armor client calls it, without credentials"
				+ (defaults.isEmpty() ? "" : "; not set by the application, so made up for the stand-in: "
						+ String.join(", ", defaults) + " (set them before running against Model Armor)");
	}

	@Override
	public int getOrder() {
		// Before the placeholder configurer, so that ${modelarmor.endpoint} resolves to the stand-in.
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
