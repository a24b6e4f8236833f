package dev.modelarmor.test.sample;

import java.time.Duration;

import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.VirtualRetryTime;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real waits between retries when the test asks for them, and the application's own retry runtime when it
 * has one.
 */
class RetryTimeTests {

	@Nested
	@SpringBootTest(properties = { "modelarmor.retry.initial-backoff=200ms", "modelarmor.retry.jitter=0" })
	@AutoConfigureModelArmorStandIn(realTimeRetries = true)
	class RealTime {

		@Test
		void retriesWaitForReal(@Autowired ModelArmorTemplate template, @Autowired ModelArmorStandIn modelArmor,
				@Autowired ApplicationContext context) {
			assertThat(context.getBeanNamesForType(VirtualRetryTime.class)).isEmpty();
			assertThat(context.getBeanNamesForType(RetryRuntime.class)).isEmpty();
			modelArmor.failWith(503);
			long start = System.nanoTime();

			template.sanitizeUserPrompt("hello");

			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		}

	}

	@Nested
	@SpringBootTest
	@AutoConfigureModelArmorStandIn
	class ApplicationRuntime {

		static final RetryRuntime RUNTIME = RetryRuntime.system((millis) -> {
		});

		@Test
		void theApplicationsRuntimeIsKept(@Autowired RetryRuntime runtime, @Autowired ApplicationContext context) {
			assertThat(runtime).isSameAs(RUNTIME);
			assertThat(context.getBeanNamesForType(VirtualRetryTime.class)).isEmpty();
		}

		@TestConfiguration(proxyBeanMethods = false)
		static class OwnRuntime {

			@Bean
			RetryRuntime applicationRetryRuntime() {
				return RUNTIME;
			}

		}

	}

}
