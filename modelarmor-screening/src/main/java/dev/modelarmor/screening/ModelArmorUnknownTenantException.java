package dev.modelarmor.screening;

/**
 * Thrown by a {@link ModelArmorTemplateResolver} to refuse a call whose tenant has no template. The starter
 * turns it into a refusal ({@link ScreeningDecision.Rejected}, a {@link ModelArmorInputRejectedException}
 * for the caller, whose cause is this exception): blocked whatever fail-open says, for the tenant comes with
 * the request, with one WARN line and a metric, and nothing sent to Model Armor. The starter's Spring MVC and
 * WebFlux handlers answer it with a problem detail of its own: HTTP 400, title "Unknown tenant", type
 * {@code urn:modelarmor:problem:unknown-tenant}. The message never carries the tenant's name as the request
 * gave it.
 */
public class ModelArmorUnknownTenantException extends RuntimeException {

	/** The reason given in refusals, without the tenant's name. */
	public static final String REASON = "no template is declared for the request's tenant (modelarmor.tenants) "
			+ "and modelarmor.tenant.unknown=refuse";

	/**
	 * Creates an exception.
	 */
	public ModelArmorUnknownTenantException() {
		super(REASON);
	}

}
