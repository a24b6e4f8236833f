package dev.modelarmor.screening;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Where the starter's integrations find a request's tenant, under one key, {@value #KEY}:
 * <ul>
 * <li>an integration's own context: the Spring AI advisor context ({@code .advisors(a -> a.param(KEY,
 * "acme"))}), a tool context, a retrieval query's context;</li>
 * <li>the Reactor context of a WebFlux request (a reactive {@code @ModelArmorGuarded} method, the advisor's
 * stream), which the starter's {@code WebFilter} fills from {@code modelarmor.tenant.header};</li>
 * <li>the request attribute of a servlet request, which the starter's servlet filter fills from the same
 * header, read on the request's thread.</li>
 * </ul>
 * The first that names a tenant wins, in that order.
 */
public final class ModelArmorTenant {

	/** The key of the tenant in contexts, Reactor contexts and request attributes. */
	public static final String KEY = "modelarmor.tenant";

	private static final boolean WEB_PRESENT = ClassUtils.isPresent(
			"org.springframework.web.context.request.RequestContextHolder", ModelArmorTenant.class.getClassLoader());

	private ModelArmorTenant() {
	}

	/**
	 * The tenant an integration's context names, else the current servlet request's.
	 * @param context the integration's context, such as the advisor context
	 * @return the tenant, or {@code null}
	 */
	public static @Nullable String of(Map<String, ? extends @Nullable Object> context) {
		Object tenant = context.get(KEY);
		return (tenant != null) ? tenant.toString() : current();
	}

	/**
	 * The tenant of the servlet request being handled on this thread.
	 * @return the tenant, or {@code null} outside a request or when it names none
	 */
	public static @Nullable String current() {
		if (!WEB_PRESENT) {
			return null;
		}
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		Object tenant = (attributes != null) ? attributes.getAttribute(KEY, RequestAttributes.SCOPE_REQUEST) : null;
		return (tenant != null) ? tenant.toString() : null;
	}

}
