package dev.modelarmor.observation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorSpringAiAutoConfiguration;
import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.screening.ScreeningObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelArmorObservationAutoConfiguration}: on with Micrometer, off without it, and stepping back for
 * an application's own observers.
 */
class ModelArmorObservationAutoConfigurationTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
				ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor));

	@Test
	void observersRecordIntoTheApplicationsRegistries() {
		answerEverythingClean(modelArmor);
		this.runner.withUserConfiguration(Registries.class).run((context) -> {
			assertThat(context).hasSingleBean(MicrometerCallObserver.class)
				.hasSingleBean(MicrometerScreeningObserver.class);
			context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello");
			assertThat(context.getBean(MeterRegistry.class).get(MicrometerCallObserver.REQUESTS).timer().count())
				.isEqualTo(1);
			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasSingleObservationThat()
				.hasNameEqualTo(MicrometerCallObserver.OBSERVATION)
				.hasBeenStopped();
		});
	}

	@Test
	void theTemplateTagShowsConfiguredTemplatesOnlyWhateverCallersName() {
		answerEverythingClean(modelArmor);
		this.runner.withUserConfiguration(Registries.class)
			.withConfiguration(AutoConfigurations.of(ModelArmorSpringAiAutoConfiguration.class))
			.withPropertyValues("modelarmor.spring-ai.advisor.template=advisor-template")
			.run((context) -> {
				ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
				operations.sanitizeUserPrompt("hello");
				operations.withTemplate("advisor-template").sanitizeUserPrompt("hello");
				for (int i = 0; i < 5; i++) {
					operations.withTemplate("invented-" + i).sanitizeUserPrompt("hello");
				}
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find(MicrometerCallObserver.REQUESTS).timers())
					.extracting((timer) -> timer.getId().getTag("template"))
					.containsExactlyInAnyOrder(ModelArmorStubs.DEFAULT_TEMPLATE, "advisor-template", "other");
				assertThat(registry.get(MicrometerCallObserver.REQUESTS).tag("template", "other").timer().count())
					.isEqualTo(5);
			});
	}

	@Test
	void withoutMeterRegistryBeanTheObserversRecordNoMeters() {
		answerEverythingClean(modelArmor);
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(MicrometerCallObserver.class)
				.hasSingleBean(MicrometerScreeningObserver.class)
				.doesNotHaveBean(MeterRegistry.class);
			assertThat(context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound()).isFalse();
		});
	}

	@Test
	void withoutMicrometerNothingIsConfiguredAndCallsStillWork() {
		answerEverythingClean(modelArmor);
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(MicrometerCallObserver.class)
				.doesNotHaveBean(MicrometerScreeningObserver.class)
				.doesNotHaveBean(ModelArmorCallObserver.class)
				.doesNotHaveBean(ScreeningObserver.class);
			assertThat(context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello").matchFound()).isFalse();
		});
	}

	@Test
	void disablingModelArmorDisablesTheObservers() {
		this.runner.withPropertyValues("modelarmor.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(MicrometerCallObserver.class)
				.doesNotHaveBean(MicrometerScreeningObserver.class));
	}

	@Test
	void anApplicationsOwnObserversWin() {
		answerEverythingClean(modelArmor);
		this.runner.withUserConfiguration(Registries.class, OwnObservers.class).run((context) -> {
			assertThat(context).doesNotHaveBean(MicrometerCallObserver.class)
				.doesNotHaveBean(MicrometerScreeningObserver.class)
				.hasSingleBean(ModelArmorCallObserver.class)
				.hasSingleBean(ScreeningObserver.class);
			context.getBean(ModelArmorOperations.class).sanitizeUserPrompt("hello");
			assertThat(context.getBean(RecordingCallObserver.class).results).singleElement()
				.satisfies((result) -> assertThat(result.operation()).isEqualTo("sanitize_user_prompt"));
			assertThat(context.getBean(MeterRegistry.class).find(MicrometerCallObserver.REQUESTS).meters()).isEmpty();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Registries {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnObservers {

		@Bean
		RecordingCallObserver recordingCallObserver() {
			return new RecordingCallObserver();
		}

		@Bean
		ScreeningObserver ownScreeningObserver() {
			return ScreeningObserver.NONE;
		}

	}

	static class RecordingCallObserver implements ModelArmorCallObserver {

		final List<CallResult> results = new CopyOnWriteArrayList<>();

		@Override
		public Call start(String operation) {
			return new Call() {

				@Override
				public void finished(CallResult result) {
					RecordingCallObserver.this.results.add(result);
				}

			};
		}

	}

}
