package dev.modelarmor.gateway.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.modelarmor.autoconfigure.internal.NamedTemplates;

import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;

/**
 * The templates that the {@code ModelArmor} filters of the routes declared in properties
 * ({@code spring.cloud.gateway.server.webflux.routes}) name, each by the argument that names it, so that they are
 * among the templates in use: read at start-up by the template check and values of the meters' {@code template}
 * tag. Routes built in code are not seen here.
 */
public final class RouteTemplates {

	private static final String ROUTES = GatewayProperties.PREFIX + ".routes";

	private RouteTemplates() {
	}

	/**
	 * The templates the routes' {@code ModelArmor} filters name.
	 * @param filterName the name of the filter ({@code ModelArmor})
	 * @param routes the routes as the properties declare them
	 * @return each template by the property that names it, such as
	 * {@code spring.cloud.gateway.server.webflux.routes[4].filters[0].args.prompt-template}
	 */
	public static NamedTemplates of(String filterName, List<RouteDefinition> routes) {
		Map<String, String> byProperty = new LinkedHashMap<>();
		for (int r = 0; r < routes.size(); r++) {
			List<FilterDefinition> filters = routes.get(r).getFilters();
			for (int f = 0; f < filters.size(); f++) {
				FilterDefinition filter = filters.get(f);
				if (!filterName.equals(filter.getName())) {
					continue;
				}
				String prefix = ROUTES + "[" + r + "].filters[" + f + "].args.";
				filter.getArgs().forEach((argument, value) -> {
					if (isTemplate(argument) && value != null && !value.isBlank()) {
						byProperty.put(prefix + argument, value.strip());
					}
				});
			}
		}
		return new NamedTemplates(byProperty);
	}

	/** {@code prompt-template}, {@code promptTemplate}, {@code response-template}, ... as relaxed binding reads them. */
	private static boolean isTemplate(String argument) {
		String name = argument.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
		return name.equals("prompttemplate") || name.equals("responsetemplate");
	}

}
