package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.actuate.ModelArmorHealthIndicator;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mockito.Mockito;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health auto-configuration: off unless enabled, the contributor named {@code modelArmor}, a check
 * that makes one attempt instead of retrying, and backing off without the health classes or a client.
 */
class ModelArmorHealthAutoConfigurationTests {

	static final String TEMPLATE_PATH = "/v1/projects/demo-project/locations/us-central1/templates/default-template";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorHealthAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class))
		.withBean(RetryRuntime.class, () -> this.time.runtime(new SplittableRandom(5)))
		.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.template-id=default-template",
				"modelarmor.credentials.enabled=false", "modelarmor.endpoint=" + modelArmor.baseUrl());

	private final ApplicationContextRunner enabled = this.runner
		.withPropertyValues("management.health.modelarmor.enabled=true");

	@Test
	void offByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorOperations.class);
			assertThat(context).doesNotHaveBean(ModelArmorHealthIndicator.class);
			assertThat(context.getBean(HealthContributorRegistry.class).getContributor("modelArmor")).isNull();
		});
		this.runner.withPropertyValues("management.health.modelarmor.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorHealthIndicator.class));
	}

	@Test
	void onWithThePropertyAsTheModelArmorContributor() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson(
				"{\"name\": \"projects/demo-project/locations/us-central1/templates/default-template\"}")));
		this.enabled.run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorHealthIndicator.class);
			assertThat(context).hasBean("modelArmorHealthIndicator");
			HealthIndicator contributor = (HealthIndicator) context.getBean(HealthContributorRegistry.class)
				.getContributor("modelArmor");
			assertThat(contributor).isSameAs(context.getBean(ModelArmorHealthIndicator.class));
			Health health = contributor.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("template", "default-template")
				.containsEntry("location", "us-central1");
		});
	}

	@Test
	void aCheckMakesOneAttemptWhereCallsWouldRetry() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(aResponse().withStatus(503)));
		this.enabled.run((context) -> {
			Health health = context.getBean(ModelArmorHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("statusCode", 503);
			modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
			assertThat(this.time.sleeps()).isEmpty();
		});
	}

	@Test
	void cachesForTheConfiguredTimeToLive() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATE_PATH)).willReturn(okJson("{}")));
		this.enabled.withPropertyValues("modelarmor.health.cache-time-to-live=10s").run((context) -> {
			ModelArmorHealthIndicator indicator = context.getBean(ModelArmorHealthIndicator.class);
			indicator.health();
			this.time.advance(Duration.ofSeconds(9));
			indicator.health();
			modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
			this.time.advance(Duration.ofSeconds(1));
			indicator.health();
			modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATE_PATH)));
		});
	}

	@Test
	void absentWithoutTheHealthClasses() {
		this.enabled.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasSingleBean(ModelArmorOperations.class)
				.doesNotHaveBean(ModelArmorHealthIndicator.class));
		this.enabled.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorHealthIndicator.class));
	}

	@Test
	void absentWhenTheStarterIsDisabled() {
		this.enabled.withPropertyValues("modelarmor.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorHealthIndicator.class));
	}

	@Test
	void checksAnApplicationsOwnOperationsWithTheConfiguredTemplate() {
		this.enabled.withUserConfiguration(OwnOperations.class).run((context) -> {
			ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
			Mockito.when(operations.templates().get("default-template"))
				.thenReturn(new Template(null, null, null, null, null, null));
			assertThat(context.getBean(ModelArmorHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
			Mockito.verify(operations.templates()).get("default-template");
		});
	}

	@Test
	void unknownWithoutADefaultTemplate() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorHealthAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.credentials.enabled=false",
					"modelarmor.endpoint=" + modelArmor.baseUrl(), "management.health.modelarmor.enabled=true")
			.run((context) -> assertThat(context.getBean(ModelArmorHealthIndicator.class).health().getStatus())
				.isEqualTo(Status.UNKNOWN));
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnIndicator() {
		this.enabled.withUserConfiguration(OwnIndicator.class).run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorHealthIndicator.class);
			assertThat(context).hasBean("myIndicator");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnOperations {

		@Bean
		ModelArmorOperations myOperations() {
			return Mockito.mock(ModelArmorOperations.class, Mockito.RETURNS_DEEP_STUBS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnIndicator {

		@Bean
		ModelArmorHealthIndicator myIndicator(ModelArmorOperations operations) {
			return new ModelArmorHealthIndicator(operations, "other", Duration.ZERO, java.time.Clock.systemUTC());
		}

	}

}
