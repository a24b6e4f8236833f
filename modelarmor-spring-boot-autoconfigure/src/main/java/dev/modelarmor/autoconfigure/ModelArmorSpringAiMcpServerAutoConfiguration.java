package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import dev.modelarmor.ai.mcp.ModelArmorMcpServerObserver;
import dev.modelarmor.ai.mcp.ModelArmorMcpServerScreener;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.screening.ModelArmorScreening;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the screening of the MCP server an application serves with Spring AI's MCP server
 * starter: with that starter and {@code modelarmor-spring-ai} on the class path, and unless
 * {@code modelarmor.spring-ai.mcp-server.enabled=false}, a {@link ModelArmorMcpServerScreener} and a bean
 * post-processor that decorates every tool, prompt and resource specification (sync, async and stateless; the
 * lists Spring AI's auto-configuration makes of {@code ToolCallback} beans and {@code @McpTool}, {@code @McpPrompt} and
 * {@code @McpResource} methods, and the application's own) before the MCP server is built from them. With
 * Micrometer and a {@code MeterRegistry}, the counter {@code modelarmor.mcp.server.screenings} (tags
 * {@code part}, {@code name}, {@code outcome}).
 */
@AutoConfiguration(after = { ModelArmorAutoConfiguration.class, ModelArmorObservationAutoConfiguration.class },
		beforeName = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration")
@ConditionalOnClass(value = ModelArmorMcpServerScreener.class,
		name = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration")
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "modelarmor.spring-ai.mcp-server.enabled", matchIfMissing = true)
@Import({ ModelArmorSettingsConfiguration.class, ModelArmorScreeningConfiguration.class })
@EnableConfigurationProperties({ ModelArmorSpringAiMcpServerProperties.class, ModelArmorScreeningProperties.class })
public final class ModelArmorSpringAiMcpServerAutoConfiguration {

	/** Validated at startup, and read by the template check. */
	@Bean
	NamedTemplates modelArmorMcpServerTemplates(ModelArmorSpringAiMcpServerProperties properties) {
		return SpringAiMcpServerSettingsMapper.templates(properties);
	}

	@Bean
	@ConditionalOnMissingBean
	ModelArmorMcpServerScreener modelArmorMcpServerScreener(ModelArmorScreening modelArmorScreening,
			ModelArmorSpringAiMcpServerProperties properties, ModelArmorSettings settings,
			ObjectProvider<ModelArmorMcpServerObserver> observer) {
		return new ModelArmorMcpServerScreener(modelArmorScreening, SpringAiMcpServerSettingsMapper.template(properties),
				SpringAiMcpServerSettingsMapper.options(properties),
				observer.getIfAvailable(() -> ModelArmorMcpServerObserver.NONE), settings.failOpen());
	}

	@Bean
	static BeanPostProcessor modelArmorMcpServerSpecificationsPostProcessor(
			ObjectProvider<ModelArmorMcpServerScreener> modelArmorMcpServerScreener) {
		return new SpecificationsPostProcessor(modelArmorMcpServerScreener);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ModelArmorMcpServerObserver modelArmorMcpServerObserver(ObjectProvider<MeterRegistry> meterRegistry) {
			return new MicrometerObserver(meterRegistry);
		}

	}

	/**
	 * Counts each screening by part, name (as the server declares it: bounded by the server's own tools,
	 * prompts and resources) and outcome, in the application's {@link MeterRegistry}, if it has one.
	 */
	static final class MicrometerObserver implements ModelArmorMcpServerObserver {

		private final ObjectProvider<MeterRegistry> registry;

		MicrometerObserver(ObjectProvider<MeterRegistry> registry) {
			this.registry = registry;
		}

		@Override
		public void screened(Part part, String name, Outcome outcome) {
			MeterRegistry registry = this.registry.getIfUnique();
			if (registry == null) {
				return;
			}
			Counter.builder("modelarmor.mcp.server.screenings")
				.description("What Model Armor's screening of the MCP server's calls decided")
				.tag("part", part.tag())
				.tag("name", name)
				.tag("outcome", outcome.tag())
				.register(registry)
				.increment();
		}

	}

	/**
	 * Decorates the MCP server's specifications, in the lists Spring AI's MCP server auto-configuration collects
	 * (beans of {@code List<SyncToolSpecification>} and the like) and as single beans, before the server is
	 * built from them.
	 */
	static final class SpecificationsPostProcessor implements BeanPostProcessor {

		/**
		 * The specifications the screener decorates, each with how: every tool, prompt and resource specification
		 * of the sync, async and stateless servers.
		 */
		private static final List<Screened<?>> SCREENED = List.of(
				new Screened<>(SyncToolSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(AsyncToolSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(SyncPromptSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(AsyncPromptSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(SyncResourceSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(AsyncResourceSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(SyncResourceTemplateSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(AsyncResourceTemplateSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.SyncToolSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.AsyncToolSpecification.class, ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.SyncPromptSpecification.class,
						ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.AsyncPromptSpecification.class,
						ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.SyncResourceSpecification.class,
						ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.AsyncResourceSpecification.class,
						ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.SyncResourceTemplateSpecification.class,
						ModelArmorMcpServerScreener::screened),
				new Screened<>(McpStatelessServerFeatures.AsyncResourceTemplateSpecification.class,
						ModelArmorMcpServerScreener::screened));

		/**
		 * One kind of specification and how the screener decorates it.
		 * @param type the specification's type
		 * @param screen decorates one
		 * @param <T> the specification's type
		 */
		private record Screened<T>(Class<T> type, BiFunction<ModelArmorMcpServerScreener, T, T> screen) {

			Object screened(ModelArmorMcpServerScreener screener, Object specification) {
				return this.screen.apply(screener, this.type.cast(specification));
			}

		}

		private final ObjectProvider<ModelArmorMcpServerScreener> screener;

		SpecificationsPostProcessor(ObjectProvider<ModelArmorMcpServerScreener> screener) {
			this.screener = screener;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (bean instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(SpecificationsPostProcessor::isSpecification)) {
				List<Object> screened = new ArrayList<>(list.size());
				ModelArmorMcpServerScreener screener = this.screener.getObject();
				for (Object specification : list) {
					screened.add(screened(screener, specification));
				}
				return screened;
			}
			if (isSpecification(bean)) {
				return screened(this.screener.getObject(), bean);
			}
			return bean;
		}

		private static boolean isSpecification(@Nullable Object bean) {
			return SCREENED.stream().anyMatch((kind) -> kind.type().isInstance(bean));
		}

		private static Object screened(ModelArmorMcpServerScreener screener, Object specification) {
			for (Screened<?> kind : SCREENED) {
				if (kind.type().isInstance(specification)) {
					return kind.screened(screener, specification);
				}
			}
			throw new IllegalArgumentException("Not an MCP server specification: " + specification.getClass().getName());
		}

	}

}
