package dev.modelarmor.test.sample;

import dev.modelarmor.actuate.ModelArmorHealthIndicator;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health indicator in a test against the stand-in: the stand-in serves the template read the indicator
 * sends, so the application's health is UP in tests as in production.
 */
@SpringBootTest(properties = "management.health.modelarmor.enabled=true")
@AutoConfigureModelArmorStandIn
class StandInHealthTests {

	@Autowired
	ModelArmorHealthIndicator health;

	@Test
	void theConfiguredTemplateIsReadAndModelArmorIsUp() {
		assertThat(this.health.health().getStatus()).isEqualTo(Status.UP);
	}

}
