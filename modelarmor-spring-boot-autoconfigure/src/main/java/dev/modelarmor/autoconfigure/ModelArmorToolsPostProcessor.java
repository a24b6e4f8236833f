package dev.modelarmor.autoconfigure;

import dev.modelarmor.ai.tool.ModelArmorToolCallbackResolver;
import dev.modelarmor.ai.tool.ModelArmorToolCallingManager;
import dev.modelarmor.ai.tool.ModelArmorToolScreener;

import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@link ToolCallingManager} and {@link ToolCallbackResolver} beans, so that every
 * tool Spring AI runs (the tools of a {@code ChatClient}, {@code @Tool} methods, tool callback beans
 * resolved by name, the tools of MCP tool callback providers) has its arguments and result screened, and
 * every tool offered to a model its definition. Wrapping the beans rather than replacing them
 * keeps whatever the application or Spring AI's auto-configuration set on them (limits, observation,
 * exception handling).
 */
final class ModelArmorToolsPostProcessor implements BeanPostProcessor {

	private final ObjectProvider<ModelArmorToolScreener> screener;

	ModelArmorToolsPostProcessor(ObjectProvider<ModelArmorToolScreener> screener) {
		this.screener = screener;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ToolCallingManager manager && !(bean instanceof ModelArmorToolCallingManager)) {
			return new ModelArmorToolCallingManager(manager, this.screener.getObject());
		}
		if (bean instanceof ToolCallbackResolver resolver && !(bean instanceof ModelArmorToolCallbackResolver)) {
			return new ModelArmorToolCallbackResolver(resolver, this.screener.getObject());
		}
		return bean;
	}

}
