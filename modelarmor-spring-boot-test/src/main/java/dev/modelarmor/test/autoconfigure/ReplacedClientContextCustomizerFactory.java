package dev.modelarmor.test.autoconfigure;

import java.util.List;

import dev.modelarmor.client.ModelArmorOperations;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.bean.override.BeanOverrideHandler;
import org.springframework.test.context.bean.override.BeanOverrideStrategy;

/**
 * Makes {@code @MockitoBean ModelArmorTemplate} (or any bean override that replaces the client, such as
 * {@code @TestBean}) the one line a test needs: the auto-configured client's credentials are then never
 * used, so {@code modelarmor.credentials.enabled} is turned off (no Application Default Credentials are
 * looked up on a build machine that has none), and a template id is set where the application has none
 * (the guard checks it at startup). A spy ({@code @MockitoSpyBean}) wraps the real client, which keeps
 * its credentials.
 */
final class ReplacedClientContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		for (BeanOverrideHandler handler : BeanOverrideHandler.forTestClass(testClass)) {
			Class<?> type = handler.getBeanType().resolve();
			if (handler.getStrategy() != BeanOverrideStrategy.WRAP && type != null
					&& ModelArmorOperations.class.isAssignableFrom(type)) {
				return new ReplacedClientContextCustomizer();
			}
		}
		return null;
	}

	/**
	 * Applies {@link TestClientProperties#replacedClient}. Equal to every other instance, so that the
	 * contexts of tests that replace the client are cached together.
	 */
	static final class ReplacedClientContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			TestClientProperties.replacedClient(context.getEnvironment());
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof ReplacedClientContextCustomizer;
		}

		@Override
		public int hashCode() {
			return ReplacedClientContextCustomizer.class.hashCode();
		}

	}

}
