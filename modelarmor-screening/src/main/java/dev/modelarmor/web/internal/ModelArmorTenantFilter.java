package dev.modelarmor.web.internal;

import java.io.IOException;
import java.util.Collections;

import dev.modelarmor.screening.ModelArmorTenant;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Names the tenant of each servlet request from a header ({@code modelarmor.tenant.header}): the header's
 * value becomes the request attribute {@link ModelArmorTenant#KEY}, which the starter's integrations read on
 * the request's thread. A request without the header, or with only empty or blank values, names no tenant;
 * one that names two different tenants (the header repeated, or commas) is refused with a 400 problem detail
 * ({@link TenantHeader}). Trust a header only when a gateway
 * you run sets it (and strips what clients send): a client that can set it chooses its own policy.
 */
public class ModelArmorTenantFilter extends OncePerRequestFilter {

	private final String header;

	private final TenantRefusals refusals;

	/**
	 * Creates a filter that counts nothing.
	 * @param header the header that names the tenant
	 */
	public ModelArmorTenantFilter(String header) {
		this(header, TenantRefusals.NONE);
	}

	/**
	 * Creates a filter.
	 * @param header the header that names the tenant
	 * @param refusals counts the requests refused
	 */
	public ModelArmorTenantFilter(String header, TenantRefusals refusals) {
		Assert.hasText(header, "header must not be empty");
		this.header = header;
		this.refusals = refusals;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		TenantHeader.Tenant tenant = TenantHeader.read(Collections.list(request.getHeaders(this.header)));
		if (tenant.ambiguous()) {
			TenantHeader.warnAmbiguous(this.header);
			this.refusals.ambiguousHeader();
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.getOutputStream().write(TenantHeader.ambiguousProblem());
			return;
		}
		if (tenant.name() != null) {
			request.setAttribute(ModelArmorTenant.KEY, tenant.name());
		}
		chain.doFilter(request, response);
	}

}
