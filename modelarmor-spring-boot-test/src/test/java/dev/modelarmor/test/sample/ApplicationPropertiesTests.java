package dev.modelarmor.test.sample;

import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.ReceivedRequest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the application sets: its project, location and template stay; its endpoint and credentials give
 * way to the stand-in.
 */
class ApplicationPropertiesTests {

	@Nested
	@SpringBootTest(properties = { "modelarmor.project-id=my-project", "modelarmor.location=europe-west4",
			"modelarmor.template-id=my-template", "modelarmor.endpoint=https://modelarmor.example.invalid",
			"modelarmor.credentials.enabled=true", "modelarmor.credentials.location=file:/nonexistent/key.json" })
	@AutoConfigureModelArmorStandIn
	class WithItsOwnSettings {

		@Test
		void idsAreTheApplicationsAndTheEndpointIsTheStandIns(@Autowired ModelArmorTemplate template,
				@Autowired ModelArmorStandIn modelArmor) {
			template.sanitizeUserPrompt("hello");

			ReceivedRequest request = modelArmor.received().get(0);
			assertThat(request.project()).isEqualTo("my-project");
			assertThat(request.location()).isEqualTo("europe-west4");
			assertThat(request.template()).isEqualTo("my-template");
		}

	}

	@Nested
	@SpringBootTest(properties = "spring.cloud.gcp.project-id=gcp-project")
	@AutoConfigureModelArmorStandIn
	class WithSpringCloudGcpsProject {

		@Test
		void thatProjectIsUsed(@Autowired ModelArmorTemplate template, @Autowired ModelArmorStandIn modelArmor) {
			template.sanitizeUserPrompt("hello");

			assertThat(modelArmor.received().get(0).project()).isEqualTo("gcp-project");
		}

	}

}
