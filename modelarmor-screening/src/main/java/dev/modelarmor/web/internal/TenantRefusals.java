package dev.modelarmor.web.internal;

/**
 * Counts the requests the tenant filters refuse, beside their WARN line: the auto-configuration gives a
 * Micrometer counter ({@code modelarmor.tenant.refused}) when there is a registry.
 */
@FunctionalInterface
public interface TenantRefusals {

	/** Counts nothing. */
	TenantRefusals NONE = () -> {
	};

	/**
	 * One request refused because its tenant header named two different tenants.
	 */
	void ambiguousHeader();

}
