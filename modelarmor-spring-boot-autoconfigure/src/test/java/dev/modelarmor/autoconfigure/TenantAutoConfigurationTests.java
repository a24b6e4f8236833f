package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTemplateResolver;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.TenantTemplates;
import dev.modelarmor.screening.UnknownTenant;
import dev.modelarmor.web.internal.ModelArmorTenantFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The wiring of tenants: {@code modelarmor.tenants.*} bound and checked, an application's own resolver
 * preferred, the header filter, the startup template check reading each tenant's template where it lives,
 * one health line per location, and tenants' templates counted as declared in the {@code template} tag.
 */
class TenantAutoConfigurationTests {

	static final String NO_MATCH = "{\"sanitizationResult\":{\"filterMatchState\":\"NO_MATCH_FOUND\","
			+ "\"invocationResult\":\"SUCCESS\"}}";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorTenantAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t",
				"modelarmor.credentials.enabled=false", "modelarmor.endpoint=http://localhost:1");

	@Test
	void tenantsAreBoundWithTheirLocations() {
		this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=strict",
				"modelarmor.tenants.acme.location=europe-west4").run((context) -> {
					TenantTemplates tenants = context.getBean("modelArmorTenants", TenantTemplates.class);
					assertThat(tenants.tenants()).containsExactly(
							Map.entry("acme", TemplateReference.of("strict", "europe-west4")));
					assertThat(tenants.unknown()).isEqualTo(UnknownTenant.REFUSE);
					assertThat(context.getBean(ModelArmorScreening.class).templateResolver()).isSameAs(tenants);
				});
	}

	@Test
	void aTenantWithoutALocationFailsTheStartNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=strict").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("modelarmor.tenants.acme.location")
				.hasMessageContaining("never in a guessed one");
		});
	}

	@Test
	void aTenantWithoutATemplateFailsTheStartNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.tenants.acme.location=europe-west4").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("modelarmor.tenants.acme.template-id");
		});
	}

	@Test
	void aTemplateIdModelArmorWouldNeverAcceptFailsTheStartNamingTheProperty() {
		for (String id : java.util.List.of("../../x", "..", "strict/../../other", "has space", "-leading-hyphen",
				"x".repeat(64), "caf\u00e9", "a%2Fb", "a:b")) {
			this.runner.withPropertyValues("modelarmor.tenants.evil.template-id=" + id,
					"modelarmor.tenants.evil.location=europe-west4").run((context) -> {
						assertThat(context).as(id).hasFailed();
						assertThat(context.getStartupFailure()).as(id)
							.hasStackTraceContaining("modelarmor.tenants.evil.template-id: is not a template id "
									+ "Model Armor accepts");
					});
		}
	}

	@Test
	void everyTemplateIdModelArmorCreatesStarts() {
		for (String id : java.util.List.of("strict", "Support_Bot-2", "_x", "9", "t".repeat(63))) {
			this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=" + id,
					"modelarmor.tenants.acme.location=europe-west4").run((context) -> {
						assertThat(context).as(id).hasNotFailed();
						assertThat(context.getBean(TenantTemplates.class).templateFor("acme"))
							.isEqualTo(TemplateReference.of(id, "europe-west4"));
					});
		}
	}

	@Test
	void aLocationThatWouldNameAnotherHostFailsTheStart() {
		this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=strict",
				"modelarmor.tenants.acme.location=evil.example.com/x", "modelarmor.allowed-extra-locations=evil.example.com/x").run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure())
						.hasStackTraceContaining("modelarmor.tenants.acme.location: location must be a region");
				});
	}

	@Test
	void aLocationModelArmorDoesNotHaveFailsTheStartUnlessAllowed() {
		this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=strict",
				"modelarmor.tenants.acme.location=mars").run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure())
						.hasStackTraceContaining("modelarmor.tenants.acme.location: is not a Model Armor location (mars)");
				});
		this.runner.withPropertyValues("modelarmor.tenants.acme.template-id=strict",
				"modelarmor.tenants.acme.location=mars", "modelarmor.allowed-extra-locations=mars")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anApplicationsOwnResolverReplacesTheTenants() {
		ModelArmorTemplateResolver own = (context) -> TemplateReference.of("mine", "us-east1");
		this.runner.withBean(ModelArmorTemplateResolver.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(TenantTemplates.class);
			assertThat(context.getBean(ModelArmorScreening.class).templateResolver()).isSameAs(own);
		});
	}

	@Test
	void theHeaderFilterIsThereOnlyWhenAHeaderIsNamed() {
		WebApplicationContextRunner web = new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorTenantAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.credentials.enabled=false");
		web.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorTenantFilter.class));
		web.withPropertyValues("modelarmor.tenant.header=X-Tenant")
			.run((context) -> assertThat(context).hasSingleBean(ModelArmorTenantFilter.class));
		this.runner.withPropertyValues("modelarmor.tenant.header=X-Tenant")
			.run((context) -> assertThat(context).doesNotHaveBean(ModelArmorTenantFilter.class));
	}

	@Test
	void theTemplateCheckReadsEachTenantsTemplateWhereItLives() {
		modelArmor.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/us-central1/templates/t"))
			.willReturn(okJson("{\"name\":\"projects/p/locations/us-central1/templates/t\"}")));
		modelArmor.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/europe-west4/templates/strict"))
			.willReturn(okJson("{\"name\":\"projects/p/locations/europe-west4/templates/strict\"}")));
		modelArmor.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/us-central1/templates/strict"))
			.willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json")
				.withBody("{\"error\":{\"code\":404,\"message\":\"not found\",\"status\":\"NOT_FOUND\"}}")));
		Throwable failure = assertThatException().isThrownBy(() -> start("--modelarmor.tenants.globex.template-id=strict",
				"--modelarmor.tenants.globex.location=europe-west4", "--modelarmor.tenants.acme.template-id=strict",
				"--modelarmor.tenants.acme.location=us-central1"))
			.actual();
		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("Model Armor is not configured correctly: "
				+ "modelarmor.tenants.acme: names the template 'strict', which does not exist in location us-central1");
		modelArmor.verify(1, anyRequestedFor(urlPathEqualTo("/v1/projects/p/locations/europe-west4/templates/strict")));
		modelArmor.verify(1, anyRequestedFor(urlPathEqualTo("/v1/projects/p/locations/us-central1/templates/strict")));
	}

	@Test
	void eachLocationOfTheTenantsHasItsOwnHealthLine() {
		modelArmor.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/europe-west4/templates/strict"))
			.willReturn(okJson("{\"name\":\"projects/p/locations/europe-west4/templates/strict\"}")));
		modelArmor.stubFor(get(urlPathEqualTo("/v1/projects/p/locations/us-east1/templates/east"))
			.willReturn(aResponse().withStatus(503)));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorTenantAutoConfiguration.class, ModelArmorHealthAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t",
					"modelarmor.credentials.enabled=false", "modelarmor.endpoint=" + modelArmor.baseUrl(),
					"management.health.modelarmor.enabled=true", "modelarmor.tenants.globex.template-id=strict",
					"modelarmor.tenants.globex.location=europe-west4", "modelarmor.tenants.initech.template-id=relaxed",
					"modelarmor.tenants.initech.location=europe-west4", "modelarmor.tenants.umbrella.template-id=east",
					"modelarmor.tenants.umbrella.location=us-east1")
			.run((context) -> {
				CompositeHealthContributor locations = context.getBean("modelArmorLocationsHealthContributor",
						CompositeHealthContributor.class);
				List<String> names = new ArrayList<>();
				locations.forEach((entry) -> names.add(entry.name()));
				assertThat(names).containsExactly("europe-west4", "us-east1");
				HealthIndicator eu = (HealthIndicator) locations.getContributor("europe-west4");
				HealthIndicator east = (HealthIndicator) locations.getContributor("us-east1");
				assertThat(eu.health().getStatus()).as(eu.health().getDetails().toString()).isEqualTo(Status.UP);
				assertThat(eu.health().getDetails()).containsEntry("location", "europe-west4")
					.containsEntry("template", "strict");
				assertThat(east.health().getStatus()).isEqualTo(Status.DOWN);
			});
	}

	@Test
	void noTenantsNoLocationsHealth() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorTenantAutoConfiguration.class, ModelArmorHealthAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t",
					"modelarmor.credentials.enabled=false", "management.health.modelarmor.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean("modelArmorLocationsHealthContributor"));
	}

	@Test
	void aTenantsTemplateIsATagValueAndAnUndeclaredOneIsOther() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(okJson(NO_MATCH)));
		this.runner
			.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl(),
					"modelarmor.tenants.globex.template-id=strict", "modelarmor.tenants.globex.location=europe-west4")
			.run((context) -> {
				ModelArmorScreening screening = context.getBean(ModelArmorScreening.class);
				screening.screen(ScreeningRequest.prompt("test", "hello"), "globex", Map.of());
				screening.screen(ScreeningRequest.prompt("test", "hello")
					.withTemplate("locations/europe-west4/templates/undeclared"));
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.find(dev.modelarmor.observation.internal.MicrometerScreeningObserver.SCREENINGS).tag("template", "locations/europe-west4/templates/strict")
					.counter()).isNotNull();
				assertThat(meters.find(dev.modelarmor.observation.internal.MicrometerScreeningObserver.SCREENINGS).tag("template", "other").counter()).isNotNull();
			});
	}

	private static ConfigurableApplicationContext start(String... more) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> args = new ArrayList<>(List.of("--modelarmor.endpoint=" + modelArmor.baseUrl(),
				"--modelarmor.project-id=p", "--modelarmor.template-id=t", "--modelarmor.credentials.enabled=false",
				"--logging.level.root=WARN"));
		args.addAll(List.of(more));
		return application.run(args.toArray(String[]::new));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorTenantAutoConfiguration.class })
	static class App {

	}

}
