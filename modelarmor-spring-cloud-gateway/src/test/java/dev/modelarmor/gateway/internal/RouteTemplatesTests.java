package dev.modelarmor.gateway.internal;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.cloud.gateway.config.GatewayProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The templates the {@code ModelArmor} filters of routes declared in properties name, bound as the gateway binds
 * them, each by the property naming it.
 */
class RouteTemplatesTests {

	private static final String ROUTES = "spring.cloud.gateway.server.webflux.routes";

	@Test
	void eachTemplateOfAModelArmorFilterIsNamedByItsArgument() {
		GatewayProperties gateway = bind(Map.of(ROUTES + "[0].id", "plain", ROUTES + "[0].uri", "http://localhost:1",
				ROUTES + "[0].filters[0]", "ModelArmor=openai",
				ROUTES + "[1].id", "own", ROUTES + "[1].uri", "http://localhost:1",
				ROUTES + "[1].filters[0]", "StripPrefix=1",
				ROUTES + "[1].filters[1].name", "ModelArmor",
				ROUTES + "[1].filters[1].args.prompt-template", " prompts ",
				ROUTES + "[1].filters[1].args.responseTemplate", "locations/europe-west4/templates/answers",
				ROUTES + "[1].filters[1].args.on-match", "deidentify"));
		assertThat(RouteTemplates.of("ModelArmor", gateway.getRoutes()).byProperty()).containsOnly(
				Map.entry(ROUTES + "[1].filters[1].args.prompt-template", "prompts"),
				Map.entry(ROUTES + "[1].filters[1].args.responseTemplate", "locations/europe-west4/templates/answers"));
	}

	@Test
	void anotherFiltersTemplateArgumentAndABlankOneNameNothing() {
		GatewayProperties gateway = bind(Map.of(ROUTES + "[0].id", "other", ROUTES + "[0].uri", "http://localhost:1",
				ROUTES + "[0].filters[0].name", "SomethingElse",
				ROUTES + "[0].filters[0].args.prompt-template", "not-ours",
				ROUTES + "[0].filters[1].name", "ModelArmor",
				ROUTES + "[0].filters[1].args.prompt-template", " "));
		assertThat(RouteTemplates.of("ModelArmor", gateway.getRoutes()).byProperty()).isEmpty();
		assertThat(RouteTemplates.of("ModelArmor", List.of()).byProperty()).isEmpty();
	}

	private static GatewayProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate(GatewayProperties.PREFIX,
				GatewayProperties.class);
	}

}
