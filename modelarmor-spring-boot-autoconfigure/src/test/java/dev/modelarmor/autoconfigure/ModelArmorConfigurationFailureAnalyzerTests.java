package dev.modelarmor.autoconfigure;

import java.util.List;

import dev.modelarmor.client.ModelArmorConfigurationException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ModelArmorConfigurationFailureAnalyzerTests {

	@Test
	void describesTheProblemAndTheActionFromDeepInTheCauseChain() {
		ModelArmorConfigurationException cause = new ModelArmorConfigurationException("modelarmor.project-id",
				"no Google Cloud project id is configured", "Set modelarmor.project-id");
		BeanCreationException failure = new BeanCreationException("modelArmorTemplate", "Factory method failed", cause);

		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer().analyze(failure);

		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo(
				"Model Armor is not configured correctly: modelarmor.project-id: no Google Cloud project id is configured");
		assertThat(analysis.getAction()).isEqualTo("Set modelarmor.project-id");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void severalProblemsAreOneLineEachInTheDescriptionAndInTheAction() {
		ModelArmorConfigurationException template = new ModelArmorConfigurationException("modelarmor.template-id",
				"no default template is set", "Set modelarmor.template-id");
		ModelArmorConfigurationException project = new ModelArmorConfigurationException("modelarmor.project-id",
				"no Google Cloud project id is configured", "Set modelarmor.project-id");
		ModelArmorConfigurationException several = assertThrows(ModelArmorConfigurationException.class,
				() -> ModelArmorConfigurationProblems.throwIfAny(List.of(template, project)));

		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer()
			.analyze(new BeanCreationException("modelArmorAuthorization", "Factory method failed", several));

		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("Model Armor is not configured correctly:\n"
				+ "  - modelarmor.template-id: no default template is set\n"
				+ "  - modelarmor.project-id: no Google Cloud project id is configured");
		assertThat(analysis.getAction())
			.isEqualTo("Do each of these:\n  - Set modelarmor.template-id\n  - Set modelarmor.project-id");
		assertThat(several.property()).isEqualTo("modelarmor.template-id, modelarmor.project-id");
		assertThat(several).hasMessage("modelarmor.template-id, modelarmor.project-id: 2 settings need a change: "
				+ "modelarmor.template-id: no default template is set; modelarmor.project-id: no Google Cloud project "
				+ "id is configured. Set modelarmor.template-id; Set modelarmor.project-id");
	}

	@Test
	void oneProblemIsThrownAsItIsAndNoneNotAtAll() {
		ModelArmorConfigurationException only = new ModelArmorConfigurationException("modelarmor.template-id",
				"no default template is set", "Set modelarmor.template-id");

		assertThat(assertThrows(ModelArmorConfigurationException.class,
				() -> ModelArmorConfigurationProblems.throwIfAny(List.of(only)))).isSameAs(only);
		ModelArmorConfigurationProblems.throwIfAny(List.of());
	}

	@Test
	void isRegisteredWithSpringBoot() throws Exception {
		var factories = new org.springframework.core.io.ClassPathResource("META-INF/spring.factories");
		assertThat(factories.getContentAsString(java.nio.charset.StandardCharsets.UTF_8))
			.contains(ModelArmorConfigurationFailureAnalyzer.class.getName());
	}

}
