package compat.gcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import compat.LoopbackGoogle;
import dev.modelarmor.client.ModelArmorTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** Only spring-cloud-gcp's project id and credentials are set: Model Armor shares them. */
@SpringBootTest
class SpringCloudGcpAppTests {

	static final LoopbackGoogle google = LoopbackGoogle.start();

	@Autowired
	ModelArmorTemplate modelArmor;

	@DynamicPropertySource
	static void sharedSettings(DynamicPropertyRegistry registry) throws IOException {
		Path key = google.writeServiceAccount(Files.createTempDirectory("compat"), "key-project");
		registry.add("spring.cloud.gcp.project-id", () -> "shared-project");
		registry.add("spring.cloud.gcp.credentials.location", () -> "file:" + key);
		registry.add("modelarmor.endpoint", google::url);
		registry.add("modelarmor.template-id", () -> "chat");
	}

	@AfterAll
	static void stop() {
		google.close();
	}

	@Test
	void modelArmorUsesSpringCloudGcpsProjectAndCredentials() {
		assertThat(this.modelArmor.sanitizeUserPrompt("hello").matchFound()).isFalse();
		assertThat(google.calls()).extracting(LoopbackGoogle.Call::path)
			.contains("/v1/projects/shared-project/locations/us-central1/templates/chat:sanitizeUserPrompt");
		assertThat(google.calls()).extracting(LoopbackGoogle.Call::authorization)
			.containsOnly("Bearer " + google.token());
	}

}
