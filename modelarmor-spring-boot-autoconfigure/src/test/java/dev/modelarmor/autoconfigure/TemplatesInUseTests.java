package dev.modelarmor.autoconfigure;

import java.util.List;
import java.util.Map;

import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * {@link TemplatesInUse}: the one list of the templates the properties name, each once with the first property
 * naming it, that the start-up check, the meters' {@code template} tag and health read; and every area that
 * screens with a template of its own adds its templates to it.
 */
class TemplatesInUseTests {

	@Test
	void theClientsOwnTemplateComesFirstAndEachTemplateIsNamedByTheFirstPropertyNamingIt() {
		TemplatesInUse inUse = new TemplatesInUse(" t ",
				List.of(new NamedTemplates(Map.of("modelarmor.spring-ai.advisor.template", "t")),
						NamedTemplates.of("modelarmor.langchain4j.template", "lc4j"),
						NamedTemplates.of("modelarmor.spring-ai.moderation.template", "lc4j"),
						NamedTemplates.of("modelarmor.spring-ai.mcp-server.template", "  ")));
		assertThat(inUse.defaultTemplate()).isEqualTo(" t ");
		assertThat(inUse.namedBy()).containsExactly(entry("t", "modelarmor.template-id"),
				entry("lc4j", "modelarmor.langchain4j.template"));
		assertThat(inUse.tagValues()).containsExactlyInAnyOrder("t", "lc4j");
	}

	@Test
	void aTemplateNamedWithItsLocationIsATagValueByItsIdToo() {
		// the screening names a tenant's template with its location, the call made with it only the id
		TemplatesInUse inUse = new TemplatesInUse(null, List.of(new NamedTemplates(
				Map.of("modelarmor.tenants.globex", "locations/europe-west4/templates/strict"))));
		assertThat(inUse.defaultTemplate()).isNull();
		assertThat(inUse.namedBy())
			.containsExactly(entry("locations/europe-west4/templates/strict", "modelarmor.tenants.globex"));
		assertThat(inUse.tagValues()).containsExactlyInAnyOrder("locations/europe-west4/templates/strict", "strict");
	}

	@Test
	void everyAreaThatScreensWithItsOwnTemplateAddsItInTheOrderOfItsProperties() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorTenantAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
					ModelArmorSpringAiAutoConfiguration.class, ModelArmorSpringAiModerationAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t",
					"modelarmor.credentials.enabled=false", "modelarmor.spring-ai.tools.template=tools",
					"modelarmor.spring-ai.advisor.template=advisor", "modelarmor.spring-ai.moderation.template=moderation",
					"modelarmor.tenants.acme.template-id=acme-strict", "modelarmor.tenants.acme.location=us-east1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(TemplatesInUse.class).namedBy()).containsExactlyInAnyOrderEntriesOf(Map.of(
						"t", "modelarmor.template-id", "advisor", "modelarmor.spring-ai.advisor.template",
						"tools", "modelarmor.spring-ai.tools.template",
						"moderation", "modelarmor.spring-ai.moderation.template",
						"locations/us-east1/templates/acme-strict", "modelarmor.tenants.acme"));
			});
	}

	@Test
	void theTemplatesInUseAreOneBeanWhicheverAutoConfigurationsAskForThem() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorObservationAutoConfiguration.class, ModelArmorResilienceAutoConfiguration.class,
					ModelArmorGuardAutoConfiguration.class))
			.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t",
					"modelarmor.credentials.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(TemplatesInUse.class));
	}

}
