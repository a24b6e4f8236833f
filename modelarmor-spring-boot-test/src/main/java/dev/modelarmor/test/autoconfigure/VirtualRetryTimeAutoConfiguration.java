package dev.modelarmor.test.autoconfigure;

import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.VirtualRetryTime;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of {@link VirtualRetryTime}: the client's waits between retries take no real time.
 * Imported by {@link AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn}; off with
 * {@code realTimeRetries = true} ({@code modelarmor.test.stand-in.real-time-retries}) or when the
 * application defines its own {@link RetryRuntime}.
 */
@AutoConfiguration(before = ModelArmorAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelarmor.test.stand-in.real-time-retries", havingValue = false,
		matchIfMissing = true)
@ConditionalOnMissingBean(RetryRuntime.class)
public final class VirtualRetryTimeAutoConfiguration {

	@Bean
	VirtualRetryTime modelArmorVirtualRetryTime() {
		return new VirtualRetryTime();
	}

	@Bean
	RetryRuntime modelArmorVirtualRetryRuntime(VirtualRetryTime modelArmorVirtualRetryTime) {
		return modelArmorVirtualRetryTime.runtime();
	}

}
