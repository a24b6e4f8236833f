package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

class ModelArmorConfigurationFailureAnalyzerTests {

	@Test
	void describesTheProblemAndTheActionFromDeepInTheCauseChain() {
		ModelArmorConfigurationException cause = new ModelArmorConfigurationException("modelarmor.project-id",
				"no Google Cloud project id is configured", "Set modelarmor.project-id");
		BeanCreationException failure = new BeanCreationException("modelArmorTemplate", "Factory method failed", cause);

		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer().analyze(failure);

		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("modelarmor.project-id", "no Google Cloud project id");
		assertThat(analysis.getAction()).isEqualTo("Set modelarmor.project-id");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void isRegisteredWithSpringBoot() throws Exception {
		var factories = new org.springframework.core.io.ClassPathResource("META-INF/spring.factories");
		assertThat(factories.getContentAsString(java.nio.charset.StandardCharsets.UTF_8))
			.contains(ModelArmorConfigurationFailureAnalyzer.class.getName());
	}

}
