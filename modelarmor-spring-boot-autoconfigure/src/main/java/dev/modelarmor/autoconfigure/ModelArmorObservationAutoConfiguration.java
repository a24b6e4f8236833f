package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.screening.ScreeningObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the Model Armor metrics and observations, when Micrometer is on the class path:
 * a {@link MicrometerCallObserver} for the client's calls and a {@link MicrometerScreeningObserver} for
 * guarded calls. Either steps back for an application's own {@link ModelArmorCallObserver} or
 * {@link ScreeningObserver} bean.
 *
 * <p>The registries are the application's {@link MeterRegistry} and {@link ObservationRegistry} beans
 * when there are any: without a {@code MeterRegistry} bean no meters are recorded, without an
 * {@code ObservationRegistry} bean no observations. A meter's {@code template} tag shows the templates in use
 * ({@link TemplatesInUse}), any other as {@code other}.
 */
@AutoConfiguration(before = { ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@Import(ModelArmorSettingsConfiguration.class)
public final class ModelArmorObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ModelArmorCallObserver.class)
	MicrometerCallObserver modelArmorCallObserver(ObjectProvider<MeterRegistry> meterRegistry,
			ObjectProvider<ObservationRegistry> observationRegistry, TemplatesInUse templatesInUse) {
		return new MicrometerCallObserver(meterRegistry.getIfUnique(),
				observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP), templatesInUse.tagValues());
	}

	@Bean
	@ConditionalOnMissingBean(ScreeningObserver.class)
	MicrometerScreeningObserver modelArmorScreeningObserver(ObjectProvider<MeterRegistry> meterRegistry,
			TemplatesInUse templatesInUse) {
		return new MicrometerScreeningObserver(meterRegistry.getIfUnique(), templatesInUse.tagValues(),
				templatesInUse.defaultTemplate());
	}

}
