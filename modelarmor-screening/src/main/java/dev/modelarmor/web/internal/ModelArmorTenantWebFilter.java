package dev.modelarmor.web.internal;

import dev.modelarmor.screening.ModelArmorTenant;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Names the tenant of each WebFlux request from a header ({@code modelarmor.tenant.header}): the header's
 * value goes into the Reactor context under {@link ModelArmorTenant#KEY}, where reactive
 * {@code @ModelArmorGuarded} methods and the Spring AI advisor's streams read it. A request without the
 * header, or with only empty or blank values, names no tenant; one that names two different tenants (the
 * header repeated, or commas) is refused with a 400 problem detail ({@link TenantHeader}). Trust a header
 * only when a gateway you run sets it.
 */
public class ModelArmorTenantWebFilter implements WebFilter {

	private final String header;

	private final TenantRefusals refusals;

	/**
	 * Creates a filter that counts nothing.
	 * @param header the header that names the tenant
	 */
	public ModelArmorTenantWebFilter(String header) {
		this(header, TenantRefusals.NONE);
	}

	/**
	 * Creates a filter.
	 * @param header the header that names the tenant
	 * @param refusals counts the requests refused
	 */
	public ModelArmorTenantWebFilter(String header, TenantRefusals refusals) {
		Assert.hasText(header, "header must not be empty");
		this.header = header;
		this.refusals = refusals;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		TenantHeader.Tenant tenant = TenantHeader.read(exchange.getRequest().getHeaders().get(this.header));
		if (tenant.ambiguous()) {
			TenantHeader.warnAmbiguous(this.header);
			this.refusals.ambiguousHeader();
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(HttpStatus.BAD_REQUEST);
			response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
			DataBuffer body = response.bufferFactory().wrap(TenantHeader.ambiguousProblem());
			return response.writeWith(Mono.just(body));
		}
		String name = tenant.name();
		Mono<Void> filtered = chain.filter(exchange);
		return (name != null) ? filtered.contextWrite((context) -> context.put(ModelArmorTenant.KEY, name))
				: filtered;
	}

}
