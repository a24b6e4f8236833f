package dev.modelarmor.screening;

/**
 * Thrown by a {@link ModelArmorTemplateResolver} to refuse a call whose tenant has no template. The starter
 * turns it into a refusal ({@link ScreeningDecision.Rejected}, a {@link ModelArmorInputRejectedException}
 * for the caller): blocked whatever fail-open says, for the tenant comes with the request, with one WARN
 * line and a metric. The message never carries the tenant's name as the request gave it.
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
