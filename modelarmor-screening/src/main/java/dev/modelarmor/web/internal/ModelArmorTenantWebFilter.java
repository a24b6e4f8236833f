package dev.modelarmor.web.internal;

import dev.modelarmor.screening.ModelArmorTenant;
import reactor.core.publisher.Mono;

import org.springframework.util.Assert;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Names the tenant of each WebFlux request from a header ({@code modelarmor.tenant.header}): the header's
 * value goes into the Reactor context under {@link ModelArmorTenant#KEY}, where reactive
 * {@code @ModelArmorGuarded} methods and the Spring AI advisor's streams read it. A request without the
 * header names no tenant. Trust a header only when a gateway you run sets it.
 */
public class ModelArmorTenantWebFilter implements WebFilter {

	private final String header;

	/**
	 * Creates a filter.
	 * @param header the header that names the tenant
	 */
	public ModelArmorTenantWebFilter(String header) {
		Assert.hasText(header, "header must not be empty");
		this.header = header;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String tenant = exchange.getRequest().getHeaders().getFirst(this.header);
		Mono<Void> filtered = chain.filter(exchange);
		return (tenant != null) ? filtered.contextWrite((context) -> context.put(ModelArmorTenant.KEY, tenant))
				: filtered;
	}

}
