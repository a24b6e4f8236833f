package dev.modelarmor.test.sample;

import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.VirtualRetryTime;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test kit on the class path changes nothing in a context that does not ask for it: no stand-in, no
 * virtual time, the application's endpoint and credentials as configured.
 */
class ProductionContextTests {

	@Test
	void aContextWithoutTheAnnotationIsLeftAsItIs() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.web(WebApplicationType.NONE)
			.properties("modelarmor.project-id=prod-project", "modelarmor.template-id=prod-template",
					"modelarmor.credentials.enabled=false")
			.run()) {
			assertThat(context.getBeanNamesForType(ModelArmorStandIn.class)).isEmpty();
			assertThat(context.getBeanNamesForType(VirtualRetryTime.class)).isEmpty();
			assertThat(context.getBeanNamesForType(RetryRuntime.class)).isEmpty();
			assertThat(context.getEnvironment().getProperty("modelarmor.endpoint")).isNull();
			assertThat(context.getEnvironment().getPropertySources().stream().map((source) -> source.getName()))
				.noneMatch((name) -> name.startsWith("modelArmorTest"));
			assertThat(context.getBean(ModelArmorTemplate.class).getTemplateId()).isEqualTo("prod-template");
		}
	}

}
