package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTemplateResolver;
import dev.modelarmor.screening.ModelArmorTaskExecutor;
import dev.modelarmor.screening.ScreeningObserver;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * The screening layer, imported by every auto-configuration that screens (the guard, Spring AI, the
 * verdict cache) and so defined once whichever of them is active: the {@link ModelArmorScreening} bean through which
 * {@code @ModelArmorGuarded} methods, the Spring AI advisor, documents and tools screen, over the
 * application's {@link ModelArmorOperations}, and the {@link ModelArmorTaskExecutor} its windows and
 * parallel prompt screenings run on. The executor is bounded, on virtual threads with
 * {@code spring.threads.virtual.enabled=true} (Java 21), carries the caller's observation, tracing context
 * and MDC to its tasks (with Micrometer's context-propagation on the class path, and an application's
 * {@link TaskDecorator} bean when it has exactly one), and is closed with the context. A bean of either
 * type replaces the starter's. Its importers run after {@link ModelArmorAutoConfiguration}, so that the
 * client it screens with is known.
 */
@Configuration(proxyBeanMethods = false)
@Import(ModelArmorSettingsConfiguration.class)
class ModelArmorScreeningConfiguration {

	private static final boolean CONTEXT_PROPAGATION_PRESENT = ClassUtils
		.isPresent("io.micrometer.context.ContextSnapshotFactory", ModelArmorScreeningConfiguration.class.getClassLoader());

	private static final boolean MDC_PRESENT = ClassUtils.isPresent("org.slf4j.MDC",
			ModelArmorScreeningConfiguration.class.getClassLoader());

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnThreading(Threading.PLATFORM)
	ModelArmorTaskExecutor modelArmorTaskExecutor(ObjectProvider<TaskDecorator> taskDecorator) {
		return ModelArmorTaskExecutor.platformThreads("modelarmor-", ModelArmorTaskExecutor.DEFAULT_CONCURRENCY,
				ModelArmorTaskExecutor.DEFAULT_QUEUE_CAPACITY, decorator(taskDecorator.getIfUnique()));
	}

	@Bean(name = "modelArmorTaskExecutor", destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnThreading(Threading.VIRTUAL)
	ModelArmorTaskExecutor modelArmorVirtualTaskExecutor(ObjectProvider<TaskDecorator> taskDecorator) {
		return ModelArmorTaskExecutor.virtualThreads(ModelArmorTaskExecutor.DEFAULT_CONCURRENCY,
				decorator(taskDecorator.getIfUnique()));
	}

	// Lazy: made at the first screening (the guard looks it up at its first call), so that the client is
	// not created before anything is screened.
	@Bean(destroyMethod = "close")
	@Lazy
	@ConditionalOnMissingBean
	@ConditionalOnBean(ModelArmorOperations.class)
	ModelArmorScreening modelArmorScreening(ModelArmorOperations modelArmorOperations, ModelArmorSettings settings,
			ModelArmorTaskExecutor modelArmorTaskExecutor,
			ObjectProvider<ScreeningObserver> observer,
			ObjectProvider<ModelArmorTemplateResolver> templateResolver) {
		return ModelArmorScreening.builder(modelArmorOperations)
			.windows(settings.windows())
			.unscreenableMedia(settings.unscreenableMedia())
			.logLinesPerSecond(settings.logLinesPerSecond())
			.sanitizeOptions(settings.sanitizeOptions())
			.executor(modelArmorTaskExecutor)
			.failOpen(settings::failOpen)
			.observer(SingletonSupplier.of(() -> observer.getIfAvailable(() -> ScreeningObserver.NONE)))
			.templateResolver(templateResolver.getIfUnique(() -> ModelArmorTemplateResolver.DEFAULT))
			.build();
	}

	/** The application's decorator, then the one that carries observation, tracing and MDC, when present. */
	private static @Nullable TaskDecorator decorator(@Nullable TaskDecorator application) {
		List<TaskDecorator> decorators = new ArrayList<>();
		if (application != null) {
			decorators.add(application);
		}
		if (CONTEXT_PROPAGATION_PRESENT) {
			decorators.add(new ContextPropagatingTaskDecorator());
		}
		if (MDC_PRESENT) {
			decorators.add(new MdcTaskDecorator());
		}
		return switch (decorators.size()) {
			case 0 -> null;
			case 1 -> decorators.get(0);
			default -> new CompositeTaskDecorator(decorators);
		};
	}

}
